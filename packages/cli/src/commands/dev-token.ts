import fs from 'node:fs';
import path from 'node:path';
import { type Command, InvalidArgumentError } from 'commander';
import { CliError } from '../cli-error.js';
import { loadTokenSigner } from '../dev-tools.js';

interface DevTokenOptions {
  user: string;
  notCertified?: boolean;
  expiresIn: number;
  dataDir?: string;
}

const UNITS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86_400 };

/** `90`, `30m`, `12h`, `7d` → seconds. */
export const parseDuration = (raw: string): number => {
  const match = /^(\d{1,7})([smhd]?)$/.exec(raw.trim());
  const seconds = match ? Number(match[1]) * (UNITS[match[2] || 's'] ?? 1) : Number.NaN;
  if (!Number.isInteger(seconds) || seconds < 1 || seconds > 366 * 86_400) {
    throw new InvalidArgumentError('a duration such as 3600, 30m, 12h or 7d (at most a year)');
  }
  return seconds;
};

/** AUTH_JWT_SECRET when set, else the secret `npm start` generated in DATA_DIR/dev/jwt-secret. */
export function developmentSecret(env: NodeJS.ProcessEnv, dataDir: string | undefined): string {
  if (env.AUTH_JWT_SECRET) return env.AUTH_JWT_SECRET;
  const file = path.join(path.resolve(dataDir ?? env.DATA_DIR ?? './data'), 'dev', 'jwt-secret');
  try {
    return fs.readFileSync(file, 'utf8').trim();
  } catch {
    throw new CliError(`no AUTH_JWT_SECRET and no ${file}: start the server once (npm start) or set AUTH_JWT_SECRET`);
  }
}

/** `ferry dev-token --user <id>`: prints a user token the development server accepts. */
export function devTokenCommand(out: { write(text: string): unknown } = process.stdout, env = process.env) {
  return (program: Command): void => {
    program
      .command('dev-token')
      .description('Print a development user token (HS256 JWT, certified by default) for the certificate API')
      .requiredOption('--user <id>', 'the user id (the token subject)')
      .option('--not-certified', 'leave out the certified claim (the API answers 403)')
      .option('--expires-in <duration>', 'lifetime, e.g. 3600, 30m, 12h, 7d', parseDuration, 12 * 3600)
      .option('--data-dir <dir>', 'where npm start keeps dev/jwt-secret (default DATA_DIR or ./data)')
      .action(async (options: DevTokenOptions) => {
        if (env.NODE_ENV === 'production') {
          throw new CliError(
            'dev-token signs development tokens only; production tokens come from the identity provider',
          );
        }
        if (options.user.trim() === '' || options.user.length > 255)
          throw new CliError('--user must be 1–255 characters');
        const { signDevelopmentToken } = await loadTokenSigner('dev-token');
        const token = await signDevelopmentToken({
          userId: options.user,
          secret: developmentSecret(env, options.dataDir),
          certified: options.notCertified !== true,
          certifiedClaim: env.AUTH_CERTIFIED_CLAIM || 'certified',
          expiresInSeconds: options.expiresIn,
          issuer: env.AUTH_JWT_ISSUER || undefined,
          audience: env.AUTH_JWT_AUDIENCE || undefined,
        });
        out.write(`${token}\n`);
      });
  };
}

export const registerDevToken = devTokenCommand();
