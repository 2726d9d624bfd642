import type { ManifestNamespace, ManifestRequest } from '@ferry/contracts';
import { chooseEntry, type Timeline } from '../rollout/track-timeline.js';
import { type ManifestAnswer, type ManifestAnswers, NO_RELEASE, OUTSIDE_ROLLOUT } from './manifest-answer.js';
import type { ManifestFormat } from './manifest-format.js';

export type ManifestDecision = 'no-release' | 'up-to-date' | 'update' | 'directive';

/** A release or a directive as a track serves it, with its answers made when it was loaded. */
export interface ServedEntry {
  kind: 'release' | 'directive';
  id: string;
  answers: ManifestAnswers;
}

/** What a loaded track serves: its head, the head's rollout, and the fallback. */
export type TrackEntry = Timeline<ServedEntry>;

/** Update ids compare case-insensitively: iOS sends them in upper case, Android in lower. */
function sameId(a: string | undefined, b: string | undefined): boolean {
  return a !== undefined && b !== undefined && (a === b || a.toLowerCase() === b.toLowerCase());
}

/**
 * Spec rules 1–3 and the directives, for the entry the device gets (chooseEntry): nothing → 204; a
 * release the app already runs → up to date; a roll back to embedded for an app that already runs
 * its embedded update → up to date; otherwise the release or the directive.
 */
export function decideManifest(
  entry: Pick<ServedEntry, 'kind' | 'id'> | undefined,
  currentUpdateId: string | undefined,
  embeddedUpdateId?: string,
): ManifestDecision {
  if (!entry) return 'no-release';
  if (entry.kind === 'directive') return sameId(currentUpdateId, embeddedUpdateId) ? 'up-to-date' : 'directive';
  return sameId(currentUpdateId, entry.id) ? 'up-to-date' : 'update';
}

/** What picks a device's answer within its track: the request as parseManifestRequest reads it. */
export interface ManifestSelection {
  ns: ManifestNamespace;
  request: Pick<ManifestRequest, 'currentUpdateId' | 'embeddedUpdateId'>;
  clientId: string | undefined;
}

/**
 * The answer a device gets from a loaded track: the entry the rollout gives it (chooseEntry), the
 * spec's rules (decideManifest), in its namespace and response structure. Undefined when the
 * structure cannot carry it (a directive in JSON: the protocol's 406). The fast path and the route
 * both answer with this.
 */
export function manifestAnswer(
  track: TrackEntry,
  { ns, request, clientId }: ManifestSelection,
  format: ManifestFormat,
  upToDate: ManifestAnswers,
): ManifestAnswer | undefined {
  const chosen = chooseEntry(track, clientId);
  switch (decideManifest(chosen, request.currentUpdateId, request.embeddedUpdateId)) {
    case 'no-release':
      // Nothing for this device: the track has no entry, or only a rollout it is outside of.
      return (track.head === undefined ? NO_RELEASE : OUTSIDE_ROLLOUT)[ns][format];
    case 'up-to-date':
      return upToDate[ns][format];
    default:
      return chosen!.answers[ns][format];
  }
}
