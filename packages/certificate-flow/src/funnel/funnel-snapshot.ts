import { CertificateDocument, CertificateVendor, ProviderCode, TwoWayInfo } from '@ferry/contracts';
import { z } from 'zod';
import { FRONT_DIGITS } from '../identity/resident-number.js';
import { EMPTY_INTRO, type FunnelEntry, type FunnelState, initialFunnelState } from './funnel-state.js';
import { FAMILY_NAME_MAX } from './intro-validation.js';

const text = (max: number) => z.string().max(max);

/** What was typed on intro, but never the back part: the snapshot has no field for it (strict). */
const IntroWithoutBack = z
  .object({
    front: text(FRONT_DIGITS),
    sido: text(64),
    sigg: text(64),
    fthrNm: text(FAMILY_NAME_MAX * 2),
    mthrNm: text(FAMILY_NAME_MAX * 2),
    sposNm: text(FAMILY_NAME_MAX * 2),
    childNm: text(FAMILY_NAME_MAX * 2),
  })
  .strict();

const entryFields = {
  version: z.literal(1),
  document: CertificateDocument,
  vendor: CertificateVendor,
  assignmentId: z.string().nullable(),
};

/**
 * What a client may keep of the funnel across a reload of its page, per step; the server holds the
 * rest. Never the back part of the number, plain or encrypted (the key is public, so its
 * ciphertext is as good as the digits), never the link to the document (the server signs it again):
 * - simpleVerification: the details as typed, less the back part (typed again on resume);
 * - confirm: those details, the provider, the authentication's id and the vendor's state, which the
 *   server binds to this user, document, vendor, provider and assignment, lets complete only once,
 *   and lets expire within minutes;
 * - done: only the authentication's id, to read the link again for what is left of its lifetime.
 */
export const FunnelSnapshot = z.discriminatedUnion('step', [
  z.object({ ...entryFields, step: z.literal('simpleVerification'), intro: IntroWithoutBack }).strict(),
  z
    .object({
      ...entryFields,
      step: z.literal('confirm'),
      intro: IntroWithoutBack,
      loginOrgCd: ProviderCode,
      authenticationId: z.uuid().nullable(),
      stepData: z.string().max(8192).nullable(),
      twoWayInfo: TwoWayInfo.nullable(),
    })
    .strict(),
  z.object({ ...entryFields, step: z.literal('done'), authenticationId: z.uuid() }).strict(),
]);
export type FunnelSnapshot = z.infer<typeof FunnelSnapshot>;

/** The snapshot of a state, or null when nothing of it is worth keeping (intro, or nothing to re-read). */
export function snapshotOf(state: FunnelState): FunnelSnapshot | null {
  const entry = {
    version: 1,
    document: state.document,
    vendor: state.vendor,
    assignmentId: state.assignmentId,
  } as const;
  const { back: _never, ...intro } = state.intro;
  switch (state.step) {
    case 'intro':
      return null;
    case 'simpleVerification':
      return { ...entry, step: 'simpleVerification', intro };
    case 'confirm':
      if (!state.loginOrgCd) return null;
      return {
        ...entry,
        step: 'confirm',
        intro,
        loginOrgCd: state.loginOrgCd,
        authenticationId: state.authenticationId,
        stepData: state.stepData,
        twoWayInfo: state.twoWayInfo,
      };
    case 'done':
      return state.authenticationId ? { ...entry, step: 'done', authenticationId: state.authenticationId } : null;
  }
}

/** A snapshot as read back from storage: the snapshot, or null for anything else (absent, old, altered). */
export function parseSnapshot(stored: string | null): FunnelSnapshot | null {
  if (!stored) return null;
  try {
    const parsed = FunnelSnapshot.safeParse(JSON.parse(stored));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/**
 * Where a reload resumes from a snapshot of the same entry (vendor and assignment), or null to start
 * afresh. The back part is asked for again, and the page says why; a started authentication is
 * read again from the server first (pending work `resume`): issued, pending or expired.
 */
export function resumedState(entry: FunnelEntry, snapshot: FunnelSnapshot | null): FunnelState | null {
  if (!snapshot || snapshot.vendor !== entry.vendor || snapshot.assignmentId !== (entry.assignmentId ?? null)) {
    return null;
  }
  const base = initialFunnelState({ ...entry, document: snapshot.document });
  const reading = (state: FunnelState): FunnelState => ({ ...state, pending: { kind: 'resume', id: 1 }, sequence: 1 });
  switch (snapshot.step) {
    case 'simpleVerification':
      return { ...base, intro: { ...EMPTY_INTRO, ...snapshot.intro }, backAgain: 'reloaded' };
    case 'confirm': {
      const confirm: FunnelState = {
        ...base,
        step: 'confirm',
        intro: { ...EMPTY_INTRO, ...snapshot.intro },
        loginOrgCd: snapshot.loginOrgCd,
        authenticationId: snapshot.authenticationId,
        stepData: snapshot.stepData,
        twoWayInfo: snapshot.twoWayInfo,
        backAgain: 'reloaded',
      };
      return snapshot.authenticationId ? reading(confirm) : confirm;
    }
    case 'done':
      return reading({ ...base, step: 'done', authenticationId: snapshot.authenticationId });
  }
}
