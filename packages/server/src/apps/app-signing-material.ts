import { ConfigError } from '../config/env.js';
import { InvalidInput } from '../errors/domain-error.js';
import { generateSigningKeyInBackground } from '../signing/development-signing-key.js';
import { validateSigningMaterial } from '../signing/signing-material.js';
import type { AppKeyVault } from './app-key-vault.js';

/** expo-updates' default keyid (`codeSigningMetadata.keyid`), as `ferry keys generate` uses it. */
export const DEFAULT_APP_KEY_ID = 'main';

export interface ImportedSigningKey {
  key: string;
  certificate: string;
  keyId?: string;
}

/**
 * An app's signing key and certificate, sealed for storage: a new RSA key with a self-signed
 * code-signing certificate named after the app (as `npx expo-updates codesigning:generate` makes
 * them), or one imported (a team moving an app with its own key: its builds keep trusting it).
 * An imported pair that does not belong together, or cannot sign manifests, is refused (400).
 */
export async function sealedSigningKey(
  vault: AppKeyVault,
  slug: string,
  name: string,
  imported: ImportedSigningKey | undefined,
): Promise<{ keyId: string; certificate: string; sealedKey: string }> {
  let key: string;
  let certificate: string;
  if (imported) {
    try {
      validateSigningMaterial(
        imported.key,
        imported.certificate,
        { key: 'key', certificate: 'certificate' },
        new Date(),
      );
    } catch (error) {
      if (error instanceof ConfigError) throw new InvalidInput([{ path: 'body.key', message: error.message }]);
      throw error;
    }
    ({ key, certificate } = imported);
  } else {
    const generated = await generateSigningKeyInBackground(`${name} (Ferry app ${slug})`);
    key = generated.privateKeyPem;
    certificate = generated.certificatePem;
  }
  return { keyId: imported?.keyId ?? DEFAULT_APP_KEY_ID, certificate, sealedKey: vault.seal(slug, key) };
}
