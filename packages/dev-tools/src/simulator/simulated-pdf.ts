import { type CertificateDocument, documentTitle } from '@ferry/contracts';

const escapeText = (text: string) => text.replace(/[\\()]/g, (c) => `\\${c}`).replace(/[^\x20-\x7e]/g, '?');

/**
 * A small, valid one-page PDF (correct xref offsets) for a simulated issuance. It names the
 * document and the vendor and carries no personal data, so simulated files are harmless anywhere.
 */
export function simulatedPdf(document: CertificateDocument, vendorName: string, reference: string): Buffer {
  const title = documentTitle(document);
  const lines = [title, `SIMULATED - issued by the ${vendorName} simulator`, `Reference ${reference}`];
  const text = lines.map(
    (line, i) => `BT /F1 ${i === 0 ? 18 : 11} Tf 56 ${760 - i * 28} Td (${escapeText(line)}) Tj ET`,
  );
  const stream = text.join('\n');
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    `<< /Length ${Buffer.byteLength(stream, 'latin1')} >>\nstream\n${stream}\nendstream`,
    `<< /Title (${escapeText(title)}) /Producer (Ferry ${escapeText(vendorName)} simulator) >>`,
  ];
  let body = '%PDF-1.4\n%\xe2\xe3\xcf\xd3\n';
  const offsets: number[] = [];
  objects.forEach((object, i) => {
    offsets.push(Buffer.byteLength(body, 'latin1'));
    body += `${i + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xrefAt = Buffer.byteLength(body, 'latin1');
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) body += `${String(offset).padStart(10, '0')} 00000 n \n`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R /Info ${objects.length} 0 R >>\nstartxref\n${xrefAt}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}
