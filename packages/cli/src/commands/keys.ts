import path from 'node:path';
import { type Command, InvalidArgumentError } from 'commander';
import { generateCodeSigningKeys, keyInstructions } from '../keys/code-signing-keys.js';

interface GenerateOptions {
  out: string;
  keyid: string;
  commonName: string;
  validityYears: number;
  project?: string;
  force?: boolean;
}

const years = (raw: string): number => {
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1 || value > 30)
    throw new InvalidArgumentError('a whole number from 1 to 30');
  return value;
};

/** A key id as the server and the app config take it; shared by `keys generate` and `init`. */
export const keyIdOption = (raw: string): string => {
  // It travels in an RFC 8941 string inside the signature header: keep it to safe characters.
  if (!/^[A-Za-z0-9._-]{1,64}$/.test(raw)) throw new InvalidArgumentError('letters, digits, ".", "_" or "-" (1–64)');
  return raw;
};

/** `ferry keys generate`: the code-signing key pair and certificate for manifests. */
export function keysCommand(out: { write(text: string): unknown } = process.stdout) {
  return (program: Command): void => {
    const keys = program.command('keys').description('Code-signing keys for OTA manifests');
    keys
      .command('generate')
      .description('Generate an RSA key pair and a self-signed code-signing certificate')
      .requiredOption('--out <dir>', 'where to write private-key.pem, public-key.pem and certificate.pem')
      .option('--keyid <id>', 'keyid of the signatures (the server’s OTA_SIGNING_KEY_ID)', keyIdOption, 'main')
      .option('--common-name <name>', 'certificate common name', 'Ferry OTA code signing')
      .option('--validity-years <n>', 'certificate lifetime; apps reject updates once it expires', years, 10)
      .option('--project <dir>', 'the app directory the certificate path is printed relative to', '.')
      .option('--force', 'overwrite existing files')
      .action(async (options: GenerateOptions) => {
        const generated = await generateCodeSigningKeys({
          outDir: path.resolve(options.out),
          commonName: options.commonName,
          validityYears: options.validityYears,
          force: options.force === true,
        });
        out.write(keyInstructions(generated, options.keyid, path.resolve(options.project ?? '.')));
      });
  };
}

export const registerKeys = keysCommand();
