import { DEFAULT_APP } from '@ferry/contracts';

/**
 * The `app` label of the metrics that carry one (docs/metrics.md). Apps are made by admins, so
 * their number is bounded by people, not devices; still, a label per app is kept only for the
 * first MAX_APP_SERIES apps an instance counts, and every later one counts as `other`, so a
 * server of very many apps cannot multiply its series without end. The default app always has its own.
 */
export const MAX_APP_SERIES = 200;
export const OTHER_APP = 'other';

/** The label an app counts under, given how many apps already have a label of their own. */
export function appLabel(app: string, labelled: number): string {
  if (app === DEFAULT_APP) return app;
  return labelled < MAX_APP_SERIES ? app : OTHER_APP;
}
