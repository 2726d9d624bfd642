import type { Adoption, RolloutHealth } from '@ferry/contracts';
import { sql } from 'kysely';
import type { Database } from '../../storage/database.js';
import type { CheckReport, FailureReport, ReportStore } from './report-store.js';

/** Rows per statement: far below either engine's parameter limit (4 columns each). */
const BATCH = 250;
const DAY_MS = 24 * 60 * 60 * 1000;

const batches = <T>(items: T[]): T[][] =>
  Array.from({ length: Math.ceil(items.length / BATCH) }, (_, i) => items.slice(i * BATCH, (i + 1) * BATCH));

/** ReportStore over Kysely, the same statements on SQLite and PostgreSQL. */
export class KyselyReportStore implements ReportStore {
  constructor(private readonly database: Database) {}

  private get db() {
    return this.database.db;
  }

  /** The releases among `ids`, with their apps. */
  async knownReleases(ids: string[]): Promise<Map<string, string>> {
    const known = new Map<string, string>();
    for (const batch of batches(ids)) {
      const rows = await this.db.selectFrom('releases').select(['id', 'app_id']).where('id', 'in', batch).execute();
      for (const row of rows) known.set(row.id, row.app_id);
    }
    return known;
  }

  async recordChecks(reports: CheckReport[]): Promise<void> {
    for (const batch of batches(reports)) {
      await this.db
        .insertInto('update_checks')
        .values(
          batch.map((r) => ({ update_id: r.updateId, device: r.device, first_seen: r.seenAt, last_seen: r.seenAt })),
        )
        .onConflict((conflict) =>
          conflict.columns(['update_id', 'device']).doUpdateSet((eb) => ({ last_seen: eb.ref('excluded.last_seen') })),
        )
        .execute();
    }
  }

  async recordFailures(reports: FailureReport[]): Promise<void> {
    for (const batch of batches(reports)) {
      await this.db
        .insertInto('update_failures')
        .values(batch.map((r) => ({ update_id: r.updateId, device: r.device, kind: r.kind, first_seen: r.seenAt })))
        .onConflict((conflict) => conflict.columns(['update_id', 'device']).doNothing())
        .execute();
    }
  }

  async health(releaseId: string): Promise<RolloutHealth> {
    // Received: devices that ran it or reported it failed (a device that failed at launch never
    // reports running it). Counted in the database, so every instance's reports are in.
    const received = await sql<{ n: number | string }>`
      select count(*) as n from (
        select device from update_checks where update_id = ${releaseId}
        union
        select device from update_failures where update_id = ${releaseId}
      ) as devices`.execute(this.db);
    const failed = await this.db
      .selectFrom('update_failures')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('update_id', '=', releaseId)
      .executeTakeFirstOrThrow();
    const receivedCount = Number(received.rows[0]?.n ?? 0);
    const failedCount = Number(failed.n);
    return {
      received: receivedCount,
      failed: failedCount,
      failureRate: receivedCount === 0 ? null : failedCount / receivedCount,
    };
  }

  async adoption(releaseIds: string[], now: number): Promise<Map<string, Adoption>> {
    const adoption = new Map<string, Adoption>(releaseIds.map((id) => [id, { last24h: 0, last7d: 0 }]));
    for (const batch of batches(releaseIds)) {
      const rows = await this.db
        .selectFrom('update_checks')
        .select((eb) => [
          'update_id',
          eb.fn.countAll<number | string>().as('week'),
          eb.fn
            .sum<number | string>(
              eb
                .case()
                .when('last_seen', '>=', now - DAY_MS)
                .then(1)
                .else(0)
                .end(),
            )
            .as('day'),
        ])
        .where('update_id', 'in', batch)
        .where('last_seen', '>=', now - 7 * DAY_MS)
        .groupBy('update_id')
        .execute();
      for (const row of rows) adoption.set(row.update_id, { last24h: Number(row.day ?? 0), last7d: Number(row.week) });
    }
    return adoption;
  }
}
