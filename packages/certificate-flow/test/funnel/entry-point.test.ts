import { describe, expect, it } from 'vitest';
import { CertificateApiError } from '../../src/api/certificate-api-error.js';
import { entryFailureAlert, resolveFunnelEntry } from '../../src/funnel/entry-point.js';

const ASSIGNMENT_ID = '0b6f2a8e-3c51-4d8e-9f1a-2b7c4d5e6f70';
const api = {
  getAssignment: async (id: string) => ({
    id,
    certificateVendor: 'VENDOR_B' as const,
    title: 't',
    createdAt: '2026-01-01T00:00:00.000Z',
  }),
};

describe('resolveFunnelEntry', () => {
  it('the menu uses VENDOR_A and no assignment', async () => {
    await expect(resolveFunnelEntry({ kind: 'menu' }, api)).resolves.toEqual({
      vendor: 'VENDOR_A',
      assignmentId: null,
    });
  });

  it("an assignment uses the assignment's certificateVendor, read from the server", async () => {
    await expect(resolveFunnelEntry({ kind: 'assignment', assignmentId: ASSIGNMENT_ID }, api)).resolves.toEqual({
      vendor: 'VENDOR_B',
      assignmentId: ASSIGNMENT_ID,
    });
  });

  it('a malformed assignment id is "not found" without a call', async () => {
    await expect(resolveFunnelEntry({ kind: 'assignment', assignmentId: 'x' }, api)).rejects.toMatchObject({
      status: 404,
      code: 'ASSIGNMENT_NOT_FOUND',
    });
  });
});

describe('entryFailureAlert', () => {
  it.each([
    [new CertificateApiError(401, 'UNAUTHORIZED', ''), 'signedOut'],
    [new CertificateApiError(403, 'NOT_CERTIFIED', ''), 'notCertified'],
    [new CertificateApiError(404, 'ASSIGNMENT_NOT_FOUND', ''), 'assignmentNotFound'],
    [new CertificateApiError(429, 'RATE_LIMITED', ''), 'tooManyRequests'],
    [new CertificateApiError(0, 'NETWORK_ERROR', ''), 'network'],
    [new CertificateApiError(503, 'UNAVAILABLE', ''), 'unavailable'],
    [new Error('boom'), 'unexpected'],
  ])('%o → %s', (error, kind) => {
    expect(entryFailureAlert(error)).toBe(kind);
  });
});
