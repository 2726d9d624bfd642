import { describe, expect, it } from 'vitest';
import { type SignedManifest, signedManifestOf } from './manifest-response.js';

const signed = (id: string, body: string): SignedManifest =>
  signedManifestOf(id, { namespace: 'expo', certificate: 'test', body, signature: `sig="${id}"`, assetBaseUrl: null });
const boundaryOf = (contentType: string | undefined) => /boundary=(.+)$/.exec(contentType ?? '')?.[1];

describe('signed manifests', () => {
  it('a manifest that contains the process boundary gets a boundary of its own (RFC 2046 §5.1.1)', () => {
    const shared = boundaryOf(signed('one', '{}').multipartContentType);
    expect(shared).toMatch(/^ferry-[0-9a-f]{24}$/);
    const tricky = signed('tricky', JSON.stringify({ note: `--${shared}--` }));
    const own = boundaryOf(tricky.multipartContentType)!;
    expect(own).not.toBe(shared);
    expect(tricky.multipart.toString().split(`--${own}`)).toHaveLength(3);
  });
});
