import { CERTIFICATE_DOCUMENTS } from '@ferry/contracts';
import { describe, expect, it } from 'vitest';
import { simulatedPdf } from './simulated-pdf.js';

describe('simulatedPdf', () => {
  it.each(CERTIFICATE_DOCUMENTS)(
    '%s is a well-formed PDF: header, xref offsets that point at objects, trailer',
    (document) => {
      const pdf = simulatedPdf(document, 'VENDOR_A', 'SIM-1');
      const text = pdf.toString('latin1');
      expect(text.startsWith('%PDF-1.4\n')).toBe(true);
      expect(text.endsWith('%%EOF\n')).toBe(true);
      const startxref = Number(/startxref\n(\d+)\n/.exec(text)?.[1]);
      expect(text.slice(startxref, startxref + 4)).toBe('xref');
      const offsets = [...text.slice(startxref).matchAll(/^(\d{10}) 00000 n $/gm)].map((m) => Number(m[1]));
      expect(offsets).toHaveLength(6);
      offsets.forEach((offset, i) => {
        expect(text.slice(offset, offset + `${i + 1} 0 obj`.length)).toBe(`${i + 1} 0 obj`);
      });
      const length = Number(/\/Length (\d+)/.exec(text)?.[1]);
      const streamStart = text.indexOf('stream\n') + 'stream\n'.length;
      expect(text.slice(streamStart + length, streamStart + length + '\nendstream'.length)).toBe('\nendstream');
    },
  );
});
