import { describe, expect, it } from 'vitest';
import { certificateObjectKey } from './certificate-object-key.js';

describe('certificateObjectKey', () => {
  it('names the issuance under a two-character folder, and no user', () => {
    expect(certificateObjectKey('3f2a8c1e-5b7d-4e2a-9c1f-0a1b2c3d4e5f')).toBe(
      'certificates/3f/3f2a8c1e-5b7d-4e2a-9c1f-0a1b2c3d4e5f.pdf',
    );
  });
});
