import {
  AUDIT_EXPORT_MAX_LIMIT,
  AUDIT_PAGE_DEFAULT_LIMIT,
  AUDIT_PAGE_MAX_LIMIT,
  type AuditEvent,
  AuditEventType,
  CHANNELS,
  type Channel,
  PLATFORMS,
  type Platform,
} from '@ferry/contracts';
import { type Command, InvalidArgumentError, Option } from 'commander';
import { appOption } from '../apps/app-choice.js';
import type { AuditQuery } from '../http/ferry-client.js';
import { releaseClient } from '../releases/server-access.js';

interface AuditOptions {
  since?: string;
  until?: string;
  actor?: string;
  newest?: boolean;
  after?: number;
  type?: string[];
  channel?: Channel;
  platform?: Platform;
  runtimeVersion?: string;
  release?: string;
  limit?: number;
  follow?: boolean;
  interval: number;
  table?: boolean;
  ndjson?: boolean;
  server?: string;
  app?: string;
}

/** Where output goes: stdout, or a capture in tests. `once` (a stream's) lets a full pipe drain. */
export interface AuditOutput {
  write(text: string): unknown;
  isTTY?: boolean;
  once?(event: 'drain', listener: () => void): unknown;
}

export interface AuditDependencies {
  env: Record<string, string | undefined>;
  out: AuditOutput;
  fetch?: typeof fetch;
  now?: () => Date;
  /** With --follow: a signal that ends it (on Ctrl-C); the command then returns normally. */
  interrupts?: () => AbortSignal;
  /** The pause between two polls of --follow. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

const wholeNumber = (min: number, max: number) => (raw: string) => {
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(value) || value < min || value > max) {
    throw new InvalidArgumentError(`a whole number from ${min} to ${max}`);
  }
  return value;
};

const DURATION_UNITS: Record<string, number> = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** `--since`: an ISO 8601 time or date (the server checks it), or a duration back from now (`30m`, `24h`, `7d`). */
export function sinceValue(raw: string, now: Date): string {
  const duration = /^(\d{1,6})([smhd])$/.exec(raw);
  if (!duration) return raw;
  return new Date(now.getTime() - Number(duration[1]) * (DURATION_UNITS[duration[2]!] ?? 0)).toISOString();
}

/** `--type a,b --type c`: one list, each checked as the server checks it. */
const collectTypes = (raw: string, previous: string[] = []): string[] => {
  const types = raw
    .split(',')
    .map((value) => value.trim())
    .filter(Boolean);
  for (const type of types) {
    if (!AuditEventType.safeParse(type).success) {
      throw new InvalidArgumentError(`${JSON.stringify(type)} is not an event type (dotted lowercase words)`);
    }
  }
  return [...previous, ...types];
};

const TABLE_HEADER = ['SEQ', 'TIME', 'TYPE', 'ACTOR', 'TRACK', 'RELEASE', 'DETAILS'];
const WIDTHS = [6, 24, 20, 12, 28, 36];
const DETAILS_WIDTH = 80;

/** One table row per event as it arrives, in fixed columns, so --follow can print as it goes. */
export function auditTableLine(cells: string[]): string {
  return cells
    .map((cell, i) => (i < WIDTHS.length ? cell.padEnd(WIDTHS[i] ?? 0) : cell))
    .join('  ')
    .trimEnd();
}

const eventRow = (event: AuditEvent): string[] => {
  const track =
    event.channel || event.platform || event.runtimeVersion
      ? `${event.channel ?? '-'}/${event.platform ?? '-'}/${event.runtimeVersion ?? '-'}`
      : '-';
  const details = JSON.stringify(event.details);
  return [
    String(event.seq),
    event.createdAt,
    event.type,
    event.actor,
    track,
    event.releaseId ?? '-',
    details.length > DETAILS_WIDTH ? `${details.slice(0, DETAILS_WIDTH - 1)}…` : details,
  ];
};

const realSleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });

/**
 * `ferry audit`: the audit log, oldest first. NDJSON on stdout (one event per line, for `jq` and
 * log shippers) unless stdout is a terminal, where it is a table; --ndjson and --table choose.
 * Reads every matching event (pages of the server's maximum), or --limit of them; --follow then
 * keeps polling for new ones, resuming after the last seq so nothing is printed twice. --newest
 * reads newest first instead, a page at a time with the server's cursor (the last 50 by default).
 */
export function auditCommand(deps: () => AuditDependencies = defaultAuditDependencies) {
  return (program: Command): void => {
    program
      .command('audit')
      .description('Print the audit log (publishes, guard bypasses, rollbacks, …) as NDJSON, oldest first')
      .option('--since <time>', 'events at or after an ISO 8601 time or date, or a duration back (30m, 24h, 7d)')
      .option(
        '--until <time>',
        'events before an ISO 8601 time, or up to the end of a date (or a duration back: 1h, 7d)',
      )
      .option('--after <seq>', 'events after this seq (the last one you have)', wholeNumber(0, Number.MAX_SAFE_INTEGER))
      .option('--actor <actor>', 'only events of this actor, exactly (operator:alice, ci-bot, ferry)')
      .addOption(
        new Option(
          '--newest',
          `newest first, a page at a time with the server's cursor (--limit, default ${AUDIT_PAGE_DEFAULT_LIMIT}, in all)`,
        ).conflicts(['follow', 'after']),
      )
      .option('--type <types>', 'only these event types (comma-separated, repeatable)', collectTypes)
      .addOption(new Option('--channel <channel>', 'only this channel').choices(CHANNELS))
      .addOption(new Option('--platform <platform>', 'only this platform').choices(PLATFORMS))
      .option('--runtime-version <version>', 'only this runtimeVersion')
      .option('--release <id>', 'only events of this release')
      .option('--limit <n>', 'at most this many events in all', wholeNumber(1, Number.MAX_SAFE_INTEGER))
      .option('--follow', 'keep printing new events as they are written (Ctrl-C ends)')
      .option('--interval <seconds>', 'seconds between two polls with --follow', wholeNumber(1, 3600), 5)
      .addOption(new Option('--table', 'a table (the default on a terminal)').conflicts('ndjson'))
      .option('--ndjson', 'one JSON event per line (the default when stdout is not a terminal)')
      .option('--server <url>', 'the Ferry server (default: $OTA_SERVER_URL)')
      .addOption(appOption())
      .action(async (options: AuditOptions) => {
        const { env, out, fetch, now = () => new Date(), sleep = realSleep, interrupts } = deps();
        const signal = options.follow ? interrupts?.() : undefined;
        const client = releaseClient(env, options, fetch);
        const table = options.table ?? (!options.ndjson && out.isTTY === true);

        const write = async (text: string) => {
          if (out.write(text) === false && out.once) {
            await new Promise<void>((resolve) => out.once?.('drain', resolve));
          }
        };
        if (table) await write(`${auditTableLine(TABLE_HEADER)}\n`);
        const print = (event: AuditEvent) =>
          write(table ? `${auditTableLine(eventRow(event))}\n` : `${JSON.stringify(event)}\n`);

        const base: AuditQuery = {
          since: options.since === undefined ? undefined : sinceValue(options.since, now()),
          to: options.until === undefined ? undefined : sinceValue(options.until, now()),
          actor: options.actor,
          type: options.type,
          channel: options.channel,
          platform: options.platform,
          runtimeVersion: options.runtimeVersion,
          releaseId: options.release,
        };
        if (options.newest) {
          // Pages of the cursor: each continues exactly where the one before stopped, however many
          // events are written meanwhile.
          const wanted = options.limit ?? AUDIT_PAGE_DEFAULT_LIMIT;
          let cursor: string | undefined;
          for (let printed = 0; printed < wanted; ) {
            const page = await client.auditPage({
              ...base,
              cursor,
              limit: Math.min(AUDIT_PAGE_MAX_LIMIT, wanted - printed),
            });
            for (const event of page.events) await print(event);
            printed += page.events.length;
            if (page.nextCursor === null) return;
            cursor = page.nextCursor;
          }
          return;
        }
        let after = options.after;
        let printed = 0;
        for (;;) {
          const wanted = options.limit === undefined ? AUDIT_EXPORT_MAX_LIMIT : options.limit - printed;
          const limit = Math.min(AUDIT_EXPORT_MAX_LIMIT, wanted);
          const page = await client.auditEvents({ ...base, after, limit }, print);
          printed += page.delivered;
          after = page.lastSeq ?? after;
          if (options.limit !== undefined && printed >= options.limit) return;
          if (page.delivered === limit) continue; // more is waiting
          if (!options.follow || signal?.aborted) return;
          await sleep(options.interval * 1000, signal);
          if (signal?.aborted) return;
        }
      });
  };
}

/** stdout, ended quietly when a reader such as `head` closes the pipe; Ctrl-C ends --follow. */
function defaultAuditDependencies(): AuditDependencies {
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(0);
    throw error;
  });
  return {
    env: process.env,
    out: process.stdout,
    interrupts: () => {
      const stop = new AbortController();
      // Once: a second Ctrl-C ends the process the usual way.
      process.once('SIGINT', () => stop.abort());
      return stop.signal;
    },
  };
}

export const registerAudit = auditCommand();
