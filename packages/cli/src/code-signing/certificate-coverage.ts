import type { AppCodeSigning } from './app-code-signing.js';

/** What Ferry's fingerprint preset says it hashes of the certificate (its mark, @ferry/expo/fingerprint). */
export interface PresetCertificate {
  /** The preset's revision; before 2 it hashed no certificate. */
  version: number;
  /** The certificate it hashes, project-relative; null when `codeSigningCertificate: false`; absent before 2. */
  codeSigningCertificate?: string | null;
}

/**
 * Does the fingerprint cover the certificate the build embeds? A new certificate makes every
 * device reject every update, so it is a native change; the preset hashes one file, named in
 * fingerprint.config.js, and the app config names the one the build embeds. When they differ, a
 * certificate swap would pass the guard and the gate. Returns the problem, or undefined.
 */
export function certificateCoverageProblem(
  configFile: string,
  preset: PresetCertificate,
  app: AppCodeSigning | undefined,
): string | undefined {
  if (app === undefined) return undefined;
  const covered = preset.codeSigningCertificate;
  if (covered === app.certificatePath) return undefined;
  const fix =
    app.certificatePath === 'certs/certificate.pem'
      ? `\`ferryFingerprintConfig(__dirname)\` hashes ${app.certificatePath}`
      : `write \`ferryFingerprintConfig(__dirname, { codeSigningCertificate: '${app.certificatePath}' })\``;
  const swap = 'so a new certificate (which every installed build would reject) would pass the guard and the gate';
  if (covered === undefined) {
    return (
      `${configFile} uses Ferry's fingerprint preset ${preset.version}, which does not hash the code-signing ` +
      `certificate ${app.certificatePath} the app config embeds, ${swap}. Upgrade @ferry/expo (preset 2 hashes it; ` +
      'the fingerprint of every track changes once: docs/publishing.md, "Upgrading a live app").'
    );
  }
  if (covered === null) {
    return (
      `${configFile} passes codeSigningCertificate: false, but the app config embeds ${app.certificatePath}, ${swap}. ` +
      `Name it instead: ${fix}.`
    );
  }
  return (
    `${configFile} hashes the certificate ${covered}, but the app config embeds ${app.certificatePath}, ${swap}. ` +
    `Make them the same: ${fix}.`
  );
}
