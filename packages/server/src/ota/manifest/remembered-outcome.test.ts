import { describe, expect, it } from 'vitest';
import { manifestAnswer } from './manifest-answer.js';
import type { ManifestOutcome } from './manifest-outcome.js';
import { type SignedManifest, signedManifestOf } from './manifest-response.js';
import { RememberedOutcome } from './remembered-outcome.js';

const signed = (id: string): SignedManifest =>
  signedManifestOf(id, { namespace: 'expo', certificate: 'test', body: `{"id":"${id}"}`, signature: 'sig' });

describe('RememberedOutcome.answerTo', () => {
  it('is manifestAnswer of the outcome and structure it is given, made again when either changes', () => {
    const remembered = new RememberedOutcome();
    const a: ManifestOutcome = { kind: 'update', signed: signed('a') };
    const b: ManifestOutcome = { kind: 'update', signed: signed('b') };
    const directive: ManifestOutcome = { kind: 'directive', signed: signed('rollBackToEmbedded') };
    const cases = [
      [a, 'multipart'],
      [a, 'multipart'],
      [a, 'json'],
      [b, 'json'],
      [a, 'multipart'],
      [directive, 'multipart'],
      // A directive has no JSON form: no answer (the protocol's 406), as manifestAnswer says.
      [directive, 'json'],
    ] as const;
    for (const [outcome, format] of cases) {
      expect(remembered.answerTo(outcome, format, 'expo')).toBe(manifestAnswer(outcome, format, 'expo'));
    }
    expect(remembered.answerTo(directive, 'json', 'expo')).toBeUndefined();
  });
});
