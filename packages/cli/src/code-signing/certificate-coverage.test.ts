import { describe, expect, it } from 'vitest';
import type { AppCodeSigning } from './app-code-signing.js';
import { certificateCoverageProblem, type PresetCertificate } from './certificate-coverage.js';

const embeds = (certificatePath: string): AppCodeSigning => ({
  certificate: `./${certificatePath}`,
  certificateFile: `/app/${certificatePath}`,
  certificatePath,
  keyId: 'main',
  alg: 'rsa-v1_5-sha256',
});

describe('certificateCoverageProblem: the preset hashes the certificate the build embeds', () => {
  const rows: Array<[string, PresetCertificate, AppCodeSigning | undefined, RegExp | undefined]> = [
    [
      'the same file',
      { version: 2, codeSigningCertificate: 'certs/certificate.pem' },
      embeds('certs/certificate.pem'),
      undefined,
    ],
    ['an app that embeds none', { version: 2, codeSigningCertificate: null }, undefined, undefined],
    ['an app that embeds none, preset 1', { version: 1 }, undefined, undefined],
    [
      'another file',
      { version: 2, codeSigningCertificate: 'certs/certificate.pem' },
      embeds('keys/app.pem'),
      /hashes the certificate certs\/certificate\.pem, but the app config embeds keys\/app\.pem.*codeSigningCertificate: 'keys\/app\.pem'/,
    ],
    [
      'the default file, named differently in the preset',
      { version: 2, codeSigningCertificate: 'keys/app.pem' },
      embeds('certs/certificate.pem'),
      /`ferryFingerprintConfig\(__dirname\)` hashes certs\/certificate\.pem/,
    ],
    [
      'codeSigningCertificate: false',
      { version: 2, codeSigningCertificate: null },
      embeds('certs/certificate.pem'),
      /passes codeSigningCertificate: false, but the app config embeds certs\/certificate\.pem/,
    ],
    [
      'preset 1 (hashed no certificate)',
      { version: 1 },
      embeds('certs/certificate.pem'),
      /preset 1, which does not hash the code-signing certificate .*Upgrade @ferry\/expo/,
    ],
  ];
  it.each(rows)('%s', (_name, preset, app, problem) => {
    const found = certificateCoverageProblem('fingerprint.config.js', preset, app);
    if (problem) expect(found).toMatch(problem);
    else expect(found).toBeUndefined();
  });
});
