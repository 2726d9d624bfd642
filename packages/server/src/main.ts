import { describeAreas } from './config/areas.js';
import { certificateAnnouncement } from './config/certificate-development-defaults.js';
import { ConfigError, loadConfig } from './config/config.js';
import { applyDevelopmentDefaults, type DevelopmentNotice } from './config/development-defaults.js';
import { shouldWatchParent, watchParent } from './parent-watch.js';
import { tuneHeapForServing } from './serving-heap.js';
import { SERVER_VERSION } from './version.js';

function announce(notice: DevelopmentNotice): void {
  const lines = [
    '',
    'Ferry is running in DEVELOPMENT mode: embedded defaults, not for production.',
    `Areas (FERRY_AREAS): ${describeAreas(notice.areas)}`,
  ];
  // With the OTA area off the development token is only the operator token (OPERATOR_TOKEN unset).
  const tokenName =
    notice.releaseTokenRole === 'operator' ? 'Operator token of POST /v2/operator/assignments' : 'Release token';
  if (notice.createdReleaseToken) {
    lines.push(`${tokenName} (shown once; also in ${notice.releaseTokenFile}):`, `  ${notice.createdReleaseToken}`);
  } else if (notice.releaseTokenFile) {
    lines.push(`${tokenName}: see ${notice.releaseTokenFile}`);
  }
  if (notice.codeSigningCertificateFile) {
    lines.push(
      `Code-signing certificate${notice.createdCodeSigningKey ? ' (generated now)' : ''}; embed it in the app (updates.codeSigningCertificate, keyid "${notice.codeSigningKeyId}"):`,
      `  ${notice.codeSigningCertificateFile}`,
    );
  }
  process.stdout.write(`${lines.join('\n')}\n\n`);
}

const USAGE = `Usage: ferry-server [--version | --help]
       ferry-server tokens create|list|revoke …   (operator tokens; ferry-server tokens --help)
       ferry-server apps create|list|archive|rotate-key|token|reseal …   (apps; ferry-server apps --help)

Runs the Ferry service. It is configured by environment variables only; with none it runs on
embedded development defaults (SQLite and objects under ./data). See docs/configuration.md.
`;

async function main(): Promise<void> {
  const flag = process.argv[2];
  if (flag === 'tokens') {
    const { tokensCommand } = await import('./tokens-command.js');
    // An explicit exit: a closed PostgreSQL pool may leave a socket open that would keep the
    // command waiting after it finished (stdout is synchronous for files and pipes on Linux).
    process.exit(await tokensCommand(process.argv.slice(3)));
  }
  if (flag === 'apps') {
    const { appsCommand } = await import('./apps-command.js');
    process.exit(await appsCommand(process.argv.slice(3)));
  }
  if (flag === '--version' || flag === '-v') {
    process.stdout.write(`${SERVER_VERSION}\n`);
    return;
  }
  if (flag === '--help' || flag === '-h') {
    process.stdout.write(USAGE);
    return;
  }
  if (flag !== undefined) {
    process.stderr.write(`ferry-server: unknown argument ${flag}\n${USAGE}`);
    process.exitCode = 2;
    return;
  }
  // Started by npm, a signal to npm may stop only npm's shell: its exit stops the server
  // (parent-watch.ts). Watched from the start; until the app exists there is nothing to drain.
  let stop: (reason: string) => void = () => process.exit(0);
  const stopWatchingParent = shouldWatchParent(process.env) ? watchParent(() => stop('parent exited')) : () => {};
  tuneHeapForServing();
  let config = loadConfig();
  let notice: DevelopmentNotice | undefined;
  // The server's modules load while a first development start makes its keys in libuv's thread
  // pool (npm run bench:startup): most of a start is one or the other.
  const [{ buildApp }, defaults] = await Promise.all([
    import('./app.js'),
    config.production ? undefined : applyDevelopmentDefaults(config),
  ]);
  if (defaults) ({ config, notice } = defaults);

  const app = await buildApp({ config });
  if (notice) {
    app.log.warn({ dataDir: config.dataDir }, 'development mode: embedded defaults are in use');
    announce(notice);
    if (notice.certificates) {
      process.stdout.write(`${certificateAnnouncement(notice.certificates, app.certificates).join('\n')}\n\n`);
    }
  }

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    stopWatchingParent();
    app.log.info({ signal }, 'shutting down: finishing in-flight requests');
    const timer = setTimeout(() => process.exit(1), config.shutdownGraceMs).unref();
    await app.close();
    clearTimeout(timer);
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
  stop = (reason) => void shutdown(reason);

  await app.listen({ port: config.port, host: config.host });
}

main().catch((error: unknown) => {
  const message = error instanceof ConfigError ? error.message : error instanceof Error ? error.message : String(error);
  process.stderr.write(`ferry: cannot start: ${message}\n`);
  process.exit(1);
});
