import { parseArgs } from 'node:util';
import { CreateOperatorTokenRequest, type OperatorTokenView } from '@ferry/contracts';
import type { AppDirectory } from './auth/operator-access.js';
import { OperatorTokenStore } from './auth/operator-token-store.js';
import { localActor, table, UsageError } from './command-output.js';
import { loadConfig } from './config/config.js';
import { openMigratedDatabase } from './storage/database.js';

export const TOKENS_USAGE = `Usage:
  ferry-server tokens create --name <name> --role viewer|releaser|admin [--app <slug>|--all-apps]
  ferry-server tokens list [--json]
  ferry-server tokens revoke <id|name>

Operator tokens sign people in to the release console and the release-control API (docs/console.md).
A token's role holds in one app (--app; without it a viewer's or releaser's is the default app's)
or, for an admin only, in every app (--all-apps, what an admin token is without --app; docs/apps.md).
The token is printed once, at creation; only its SHA-256 is stored. Uses the server's configuration
(DATABASE_URL, or the SQLite database in DATA_DIR) and applies pending migrations first.
`;

const write = (text: string) => process.stdout.write(text);

function tokenTable(tokens: OperatorTokenView[]): string {
  if (tokens.length === 0)
    return 'No operator tokens yet. Create one with: ferry-server tokens create --name <name> --role <role>\n';
  return table([
    ['ID', 'NAME', 'ROLE', 'APP', 'CREATED', 'LAST USED', 'REVOKED'],
    ...tokens.map((t) => [t.id, t.name, t.role, t.app ?? '*', t.createdAt, t.lastUsedAt ?? '-', t.revokedAt ?? '-']),
  ]);
}

async function run(args: string[]): Promise<number> {
  const [command, ...rest] = args;
  if (command === undefined || command === '--help' || command === '-h') {
    (command === undefined ? process.stderr : process.stdout).write(TOKENS_USAGE);
    return command === undefined ? 2 : 0;
  }
  const { values, positionals } = (() => {
    try {
      return parseArgs({
        args: rest,
        options: {
          name: { type: 'string' },
          role: { type: 'string' },
          app: { type: 'string' },
          'all-apps': { type: 'boolean' },
          json: { type: 'boolean' },
        },
        allowPositionals: true,
        strict: true,
      });
    } catch (error) {
      throw new UsageError(error instanceof Error ? error.message : String(error));
    }
  })();
  let action: (store: OperatorTokenStore, apps: Pick<AppDirectory, 'find'>) => Promise<number>;
  if (command === 'create') {
    if (values.app !== undefined && values['all-apps']) throw new UsageError('give --app or --all-apps, not both');
    const app = values['all-apps'] ? null : values.app;
    const parsed = CreateOperatorTokenRequest.safeParse({
      name: values.name,
      role: values.role,
      ...(app === undefined ? {} : { app }),
    });
    if (!parsed.success || positionals.length > 0) {
      const issue = parsed.success ? undefined : parsed.error.issues[0];
      throw new UsageError(
        issue
          ? `--${String(issue.path[0])}: ${values[issue.path[0] as 'name'] === undefined ? 'required' : issue.message}`
          : 'unexpected arguments',
      );
    }
    action = async (store, apps) => {
      if (parsed.data.app && !(await apps.find(parsed.data.app))) {
        process.stderr.write(`ferry-server tokens: there is no app ${parsed.data.app} (ferry-server apps list)\n`);
        return 1;
      }
      const created = await store.create(parsed.data, { actor: localActor() });
      write(
        `Created operator token ${created.name} (${created.role} of ${created.app === null ? 'every app' : `app ${created.app}`}), id ${created.id}.\n` +
          'The token is shown once; store it now (only its hash is kept):\n' +
          `  ${created.token}\n`,
      );
      return 0;
    };
  } else if (command === 'list') {
    if (positionals.length > 0 || values.name !== undefined || values.role !== undefined)
      throw new UsageError('list takes only --json');
    action = async (store) => {
      const tokens = await store.list();
      write(values.json ? `${JSON.stringify(tokens, null, 2)}\n` : tokenTable(tokens));
      return 0;
    };
  } else if (command === 'revoke') {
    const target = positionals[0];
    if (target === undefined || positionals.length > 1) throw new UsageError('revoke needs one token id or name');
    action = async (store) => {
      const revoked = await store.revoke(target, { actor: localActor() });
      if (!revoked) {
        process.stderr.write(`ferry-server tokens: no operator token has the id or name ${target}\n`);
        return 1;
      }
      const { token } = revoked;
      write(
        revoked.alreadyRevoked
          ? `Operator token ${token.name} (${token.id}) was already revoked at ${token.revokedAt}.\n`
          : `Revoked operator token ${token.name} (${token.id}); it is refused from now on and its console sessions ended.\n`,
      );
      return 0;
    };
  } else {
    throw new UsageError(`unknown command ${command}`);
  }

  const config = loadConfig();
  // One connection is all a command needs.
  const target = config.database.engine === 'postgres' ? { ...config.database, poolSize: 1 } : config.database;
  const database = await openMigratedDatabase(target);
  try {
    const apps: Pick<AppDirectory, 'find'> = {
      find: async (slug) =>
        (await database.db
          .selectFrom('apps')
          .select(['slug', 'archived_at'])
          .where('slug', '=', slug)
          .executeTakeFirst())
          ? { slug, archivedAt: null }
          : undefined,
    };
    return await action(new OperatorTokenStore(database.db), apps);
  } finally {
    await database.close();
  }
}

/** `ferry-server tokens …`: returns the exit code. */
export async function tokensCommand(args: string[]): Promise<number> {
  try {
    return await run(args);
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`ferry-server tokens: ${error.message}\n\n${TOKENS_USAGE}`);
      return 2;
    }
    if (error instanceof Error && error.name === 'OperatorNameTaken') {
      process.stderr.write(`ferry-server tokens: an operator token named ${error.message} exists already\n`);
      return 1;
    }
    throw error;
  }
}
