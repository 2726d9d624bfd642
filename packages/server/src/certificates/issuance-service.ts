import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import type {
  AuthenticationStatus,
  CertificateDocument,
  CertificateResponse,
  ProviderCode,
  SecondCallField,
  TwoWayInfo,
} from '@ferry/contracts';
import type { FastifyBaseLogger } from 'fastify';
import { InvalidInput } from '../errors/domain-error.js';
import type { CertificateFlowOutcome } from '../metrics/ferry-metrics.js';
import type { ObjectStore } from '../storage/objects/object-store.js';
import {
  type VendorAuthState,
  type VendorClient,
  VendorFailure,
  type VendorIssuanceRequest,
} from '../vendors/vendor-client.js';
import type { AssignmentService } from './assignment-service.js';
import { checkBinding, type SecondCall } from './authentication-binding.js';
import type { AuthenticationBinding, AuthenticationStateStore } from './authentication-state-store.js';
import { authenticationView } from './authentication-view.js';
import {
  AuthExpired,
  AuthenticationNotFound,
  AuthPending,
  AuthStateInvalid,
  UnsupportedProvider,
  VendorError,
} from './certificate-errors.js';
import { certificateObjectKey } from './certificate-object-key.js';
import { certificateFlowFailed, certificateFlowSucceeded } from './flow-outcome.js';
import { decryptIdentityPart, UndecryptableIdentityError } from './identity-crypto.js';
import type { IssuanceStore } from './issuance-store.js';
import { decideProviderSupport } from './provider-support.js';
import { errorForVendorFailure } from './vendor-failure-errors.js';
import { hashVendorState } from './vendor-state-hash.js';

/** One certificate request, vendor-neutral, as the route parsed it. */
export interface IssueCommand {
  userId: string;
  document: CertificateDocument;
  /** A vendor of the server's registry (the request schema allows no other). */
  vendor: string;
  provider: ProviderCode;
  /** Plain front part (birthDate / rrn1). */
  front: string;
  /** The client's Base64(IV + AES-256-CBC) of the back part, and the request field it came in. */
  encryptedBack: { value: string; field: 'identityEnc' | 'rrn2Enc' };
  /** What the document's form asks for besides the person (contracts' CertificateForm). */
  details:
    | { form: 'resident'; sido: string; sigg: string }
    | { form: 'family'; father: string | null; mother: string | null; spouse: string | null; child: string | null };
  stepData: string | null;
  twoWayInfo: TwoWayInfo | null;
  assignmentId: string | null;
}

/** What a certificate call answers: the spec's response object, and the authentication it started or completed. */
export interface IssueAnswer {
  response: CertificateResponse;
  /** The recorded authentication's id, which its owner may read again (GET …/authentications/:id). */
  authenticationId: string;
}

/** An authentication as its owner reads it again (GET /v2/user/certificate/authentications/:id). */
export interface AuthenticationReading extends AuthenticationBinding {
  id: string;
  status: AuthenticationStatus;
  approvalWindowSeconds: number;
  approvalExpiresAt: number;
  /** Only when issued: a link signed for what is left of its lifetime (null when nothing is), its end, what is left. */
  certificate: { preSignedUrl: string | null; expiresAt: number; remainingSeconds: number } | null;
}

/** Time one request spent waiting for the vendor and for object storage, so Ferry's own share can be told apart. */
export interface RequestStopwatch {
  vendorMs: number;
  storageMs: number;
}

/** A vendor as the service issues through it: its client and its definition's and configuration's settings. */
export interface IssuingVendor {
  client: VendorClient;
  /** The request field its authentication state travels in (its definition's). */
  secondCall: SecondCallField;
  /** Its metrics label (its definition's). */
  metricsLabel: string;
  /** Providers switched off for it; they answer UNSUPPORTED_PROVIDER before any vendor call. */
  disabledProviders: readonly ProviderCode[];
  /** Lifetime of an authentication state, as the vendor keeps it. */
  authTtlSeconds: number;
}

export interface IssuanceServiceDeps {
  /** The registry's vendors, by id. */
  vendors: ReadonlyMap<string, IssuingVendor>;
  states: AuthenticationStateStore;
  issuances: IssuanceStore;
  assignments: AssignmentService;
  objects: ObjectStore;
  log: FastifyBaseLogger;
  aesKey: Buffer;
  vendorTimeoutMs: number;
  urlTtlSeconds: number;
  retentionDays: number;
  /**
   * How long a duplicate of a second call in flight waits for its outcome before answering
   * AUTH_PENDING as it would without waiting. Default: the vendor timeout, which bounds the call
   * it waits for.
   */
  duplicateWaitMs?: number;
  now?: () => Date;
  /** Told how each request ended (FerryMetrics). */
  metrics?: { certificateFlow(document: string, vendor: string, outcome: CertificateFlowOutcome): void };
}

const DAY_MS = 24 * 60 * 60 * 1000;
/** How often a duplicate second call re-reads a lease another instance holds: doubling from the first to the last. */
const FIRST_LEASE_POLL_MS = 25;
const MAX_LEASE_POLL_MS = 400;

/** A second call this process is completing, which concurrent duplicates of it wait for. */
interface InFlightCompletion {
  binding: AuthenticationBinding;
  result: Promise<IssueAnswer>;
}

const bindingOf = ({ userId, vendor, document, provider, assignmentId }: AuthenticationBinding) => ({
  userId,
  vendor,
  document,
  provider,
  assignmentId,
});

const sameBinding = (a: AuthenticationBinding, b: AuthenticationBinding): boolean =>
  a.userId === b.userId &&
  a.vendor === b.vendor &&
  a.document === b.document &&
  a.provider === b.provider &&
  a.assignmentId === b.assignmentId;

/**
 * Two-step issuance (spec "Certificate issuance" states): a first call starts simple
 * authentication and records its binding; a second call with the vendor's state completes it,
 * stores the PDF privately and answers a pre-signed URL. A failed request changes no data.
 */
export class IssuanceService {
  private readonly now: () => Date;
  private readonly duplicateWaitMs: number;
  /** Completions this process runs, by vendor state hash: what concurrent duplicates wait for. */
  private readonly inFlight = new Map<string, InFlightCompletion>();
  private readonly waiting = { inProcess: 0, onLease: 0 };
  constructor(private readonly deps: IssuanceServiceDeps) {
    this.now = deps.now ?? (() => new Date());
    this.duplicateWaitMs = deps.duplicateWaitMs ?? deps.vendorTimeoutMs;
  }

  async issue(
    command: IssueCommand,
    stopwatch: RequestStopwatch = { vendorMs: 0, storageMs: 0 },
  ): Promise<IssueAnswer> {
    const metrics = this.deps.metrics;
    const vendor = this.vendorOf(command);
    if (!metrics) return this.issueOnce(command, vendor, stopwatch);
    try {
      const result = await this.issueOnce(command, vendor, stopwatch);
      const step = this.stateOf(command, vendor) ? 'complete' : 'start';
      metrics.certificateFlow(command.document, vendor.metricsLabel, certificateFlowSucceeded(step));
      return result;
    } catch (error) {
      metrics.certificateFlow(command.document, vendor.metricsLabel, certificateFlowFailed(error));
      throw error;
    }
  }

  /**
   * An authentication of this user, read again: where it stands, and the issued document's link for
   * what is left of its lifetime. Another user's id is indistinguishable from a missing one.
   */
  async authenticationOf(id: string, userId: string): Promise<AuthenticationReading> {
    const state = await this.deps.states.findById(id);
    if (!state || state.userId !== userId) throw new AuthenticationNotFound();
    const issuance = await this.deps.issuances.findByAuthenticationState(state.id);
    const view = authenticationView(state, issuance, {
      now: this.now().getTime(),
      urlTtlSeconds: this.deps.urlTtlSeconds,
    });
    let certificate: AuthenticationReading['certificate'] = null;
    if (view.link && issuance) {
      const { expiresAt, remainingSeconds } = view.link;
      const preSignedUrl =
        remainingSeconds > 0 ? await this.deps.objects.signedGetUrl(issuance.objectKey, remainingSeconds) : null;
      certificate = { preSignedUrl, expiresAt, remainingSeconds };
    }
    return {
      ...bindingOf(state),
      id: state.id,
      status: view.status,
      // The window it was started with (the vendor's at the time), as recorded.
      approvalWindowSeconds: Math.max(1, Math.round((state.expiresAt - state.createdAt) / 1000)),
      approvalExpiresAt: state.expiresAt,
      certificate,
    };
  }

  /** The command's vendor; the request schema is built from the same registry, so it is always one. */
  private vendorOf(command: IssueCommand): IssuingVendor {
    const vendor = this.deps.vendors.get(command.vendor);
    if (!vendor) throw new InvalidInput([{ path: 'body.vendor', message: 'is not a vendor of this server' }]);
    return vendor;
  }

  private async issueOnce(
    command: IssueCommand,
    vendor: IssuingVendor,
    stopwatch: RequestStopwatch,
  ): Promise<IssueAnswer> {
    const { client } = vendor;
    const request = this.vendorRequest(command);
    const support = decideProviderSupport({
      provider: command.provider,
      vendorCode: client.providerCode(command.provider),
      disabled: vendor.disabledProviders,
    });
    if (!support.supported) throw new UnsupportedProvider(command.vendor, command.provider);
    if (command.assignmentId) {
      await this.deps.assignments.checkForIssuance(command.assignmentId, command.userId, command.vendor);
    }
    const state = this.stateOf(command, vendor);
    return state
      ? this.complete(command, vendor, request, state, stopwatch)
      : this.start(command, vendor, request, stopwatch);
  }

  private vendorRequest(command: IssueCommand): VendorIssuanceRequest {
    let back: ReturnType<typeof decryptIdentityPart>;
    try {
      back = decryptIdentityPart(command.encryptedBack.value, this.deps.aesKey);
    } catch (error) {
      if (!(error instanceof UndecryptableIdentityError)) throw error;
      throw new InvalidInput([
        {
          path: `body.${command.encryptedBack.field}`,
          message: 'must decrypt with the shared key to exactly 7 digits',
        },
      ]);
    }
    const identity = { front: command.front, back };
    const { document, provider, details } = command;
    if (details.form === 'family') {
      const { father, mother, spouse, child } = details;
      return { document, form: 'family', provider, identity, family: { father, mother, spouse, child } };
    }
    return { document, form: 'resident', provider, identity, address: { sido: details.sido, sigg: details.sigg } };
  }

  /** The state a second call brings back, in the vendor's second-call field; undefined on a first call. */
  private stateOf(command: IssueCommand, vendor: IssuingVendor): VendorAuthState | undefined {
    if (vendor.secondCall === 'stepData') {
      return command.stepData != null ? { field: 'stepData', stepData: command.stepData } : undefined;
    }
    return command.twoWayInfo != null ? { field: 'twoWayInfo', twoWayInfo: command.twoWayInfo } : undefined;
  }

  /** Runs one vendor operation under the vendor timeout and books its duration. */
  private async atVendor<T>(
    command: IssueCommand,
    step: 'start' | 'complete',
    stopwatch: RequestStopwatch,
    work: (signal: AbortSignal) => Promise<T>,
  ): Promise<T> {
    const started = performance.now();
    try {
      return await work(AbortSignal.timeout(this.deps.vendorTimeoutMs));
    } catch (error) {
      if (!(error instanceof VendorFailure)) throw error;
      this.deps.log.warn(
        { vendor: command.vendor, document: command.document, step, kind: error.kind, vendorCode: error.vendorCode },
        'vendor call failed',
      );
      throw errorForVendorFailure(error, {
        vendor: command.vendor,
        step,
        timeoutMs: this.deps.vendorTimeoutMs,
        approvalWindowSeconds: this.deps.vendors.get(command.vendor)?.authTtlSeconds,
      });
    } finally {
      stopwatch.vendorMs += performance.now() - started;
    }
  }

  private async start(
    command: IssueCommand,
    vendor: IssuingVendor,
    request: VendorIssuanceRequest,
    stopwatch: RequestStopwatch,
  ): Promise<IssueAnswer> {
    const state = await this.atVendor(command, 'start', stopwatch, (signal) =>
      vendor.client.startAuthentication(request, { signal }),
    );
    const now = this.now().getTime();
    const authenticationId = randomUUID();
    await this.deps.states.record({
      id: authenticationId,
      stateHash: hashVendorState(command.vendor, state),
      userId: command.userId,
      vendor: command.vendor,
      document: command.document,
      provider: command.provider,
      assignmentId: command.assignmentId,
      status: 'pending',
      leaseUntil: null,
      expiresAt: now + vendor.authTtlSeconds * 1000,
      createdAt: now,
    });
    this.deps.log.info({ vendor: command.vendor, document: command.document }, 'simple authentication started');
    const response: CertificateResponse =
      state.field === 'stepData'
        ? { preSignedUrl: null, stepData: state.stepData, twoWayInfo: null }
        : { preSignedUrl: null, stepData: null, twoWayInfo: state.twoWayInfo };
    return { response, authenticationId };
  }

  private async complete(
    command: IssueCommand,
    vendor: IssuingVendor,
    request: VendorIssuanceRequest,
    vendorState: VendorAuthState,
    stopwatch: RequestStopwatch,
  ): Promise<IssueAnswer> {
    const { client } = vendor;
    const call: SecondCall = {
      userId: command.userId,
      vendor: command.vendor,
      document: command.document,
      provider: command.provider,
      assignmentId: command.assignmentId,
      now: this.now().getTime(),
    };
    const stateHash = hashVendorState(command.vendor, vendorState);
    const deadline = performance.now() + this.duplicateWaitMs;
    // A duplicate of a second call this process is completing right now answers with its result.
    const joined = this.joinInFlight(stateHash, call, deadline);
    if (joined) return joined;
    const issue = (stateId: string) =>
      this.inFlightUnder(stateHash, call, () =>
        this.issueClaimed(command, client, request, vendorState, stateId, stopwatch),
      );
    // The usual second call takes its lease in one round trip; anything unusual (not yet
    // recorded, another user, expired, issued, held by a concurrent call) fails that statement
    // and is sorted out below, changing nothing on the way.
    const claimedId = await this.deps.states.claimBound({ ...call, stateHash, leaseUntil: this.leaseFrom(call.now) });
    if (claimedId) return issue(claimedId);
    return this.claimUnusual(call, vendor, stateHash, deadline, issue);
  }

  /** The lease outlives the vendor timeout, so a crashed holder frees it. */
  private leaseFrom(now: number): number {
    return now + this.deps.vendorTimeoutMs + 10_000;
  }

  /**
   * Why the one-statement claim failed: refuses a state that is unknown or bound to another
   * call, answers an issued one again, refuses an expired one, and otherwise claims as usual (a
   * lease that ran out since). While a concurrent duplicate holds the lease, this call waits for
   * it, until `deadline`: for its answer when it runs in this process, for its lease to resolve
   * when it runs on another instance (polling the stored state). Issued: the same document; lease
   * given back (the holder failed): this call claims it and tries itself. A wait that runs out
   * answers AUTH_PENDING, and the client repeats the call.
   */
  private async claimUnusual(
    call: SecondCall,
    vendor: IssuingVendor,
    stateHash: string,
    deadline: number,
    issue: (stateId: string) => Promise<IssueAnswer>,
  ): Promise<IssueAnswer> {
    let pollMs = FIRST_LEASE_POLL_MS;
    for (;;) {
      const state = await this.deps.states.findByHash(stateHash);
      const now = this.now().getTime();
      const verdict = checkBinding(state, { ...call, now });
      if (verdict.kind === 'invalid' || !state) {
        this.deps.log.warn(
          {
            vendor: call.vendor,
            document: call.document,
            reason: verdict.kind === 'invalid' ? verdict.reason : 'unknown-state',
          },
          'authentication state refused',
        );
        throw new AuthStateInvalid(vendor.authTtlSeconds);
      }
      if (verdict.kind === 'reissue') return this.reissue(state.id, vendor);
      const held = state.status === 'completing' && state.leaseUntil !== null && state.leaseUntil > now;
      // An unexpired lease may still issue, even past the state's lifetime: wait for it rather than
      // answer "expired" to a call whose duplicate is about to answer the document.
      if (verdict.kind === 'expired' && !held) throw new AuthExpired(vendor.authTtlSeconds);
      if (verdict.kind === 'complete' && (await this.deps.states.claim(state.id, now, this.leaseFrom(now)))) {
        return issue(state.id);
      }
      const joined = this.joinInFlight(stateHash, call, deadline);
      if (joined) return joined;
      const remainingMs = deadline - performance.now();
      if (remainingMs <= 0) {
        // Out of time: the document if it was issued just now, otherwise what a call meeting a held
        // lease answered before duplicates waited.
        const current = await this.deps.states.findByHash(stateHash);
        if (current?.status === 'issued') return this.reissue(current.id, vendor);
        throw new AuthPending();
      }
      this.waiting.onLease++;
      try {
        await sleep(Math.min(pollMs, remainingMs));
      } finally {
        this.waiting.onLease--;
      }
      pollMs = Math.min(pollMs * 2, MAX_LEASE_POLL_MS);
    }
  }

  /**
   * Runs the completion of a claimed state and lets duplicates in this process share its outcome
   * (the same answer, or the same error) until it settles.
   */
  private inFlightUnder(
    stateHash: string,
    binding: AuthenticationBinding,
    work: () => Promise<IssueAnswer>,
  ): Promise<IssueAnswer> {
    const result = work();
    const entry: InFlightCompletion = { binding: bindingOf(binding), result };
    this.inFlight.set(stateHash, entry);
    const forget = () => {
      if (this.inFlight.get(stateHash) === entry) this.inFlight.delete(stateHash);
    };
    result.then(forget, forget);
    return result;
  }

  /**
   * The outcome of the completion this process runs for the same state and binding, awaited until
   * `deadline` (then AUTH_PENDING, as without the wait); undefined when there is none. A call with
   * another binding is not joined: it goes on to be refused like any foreign state.
   */
  private joinInFlight(
    stateHash: string,
    call: AuthenticationBinding,
    deadline: number,
  ): Promise<IssueAnswer> | undefined {
    const entry = this.inFlight.get(stateHash);
    if (!entry || !sameBinding(entry.binding, call)) return undefined;
    return this.awaitInFlight(entry.result, deadline);
  }

  private async awaitInFlight(result: Promise<IssueAnswer>, deadline: number): Promise<IssueAnswer> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => reject(new AuthPending()), Math.max(0, deadline - performance.now()));
    });
    this.waiting.inProcess++;
    try {
      return await Promise.race([result, timeout]);
    } finally {
      clearTimeout(timer);
      this.waiting.inProcess--;
    }
  }

  /**
   * Second calls waiting right now for a concurrent duplicate of themselves: for one this process
   * runs (`inProcess`), or for a lease another instance holds (`onLease`). For tests and metrics.
   */
  get waitingDuplicates(): { inProcess: number; onLease: number } {
    return { ...this.waiting };
  }

  /** Completes at the vendor under the lease this call holds, stores the PDF and records the issuance. */
  private async issueClaimed(
    command: IssueCommand,
    client: VendorClient,
    request: VendorIssuanceRequest,
    vendorState: VendorAuthState,
    stateId: string,
    stopwatch: RequestStopwatch,
  ): Promise<IssueAnswer> {
    let issuanceId: string;
    let objectKey: string;
    /** Set once the PDF is in the object store, so a failure after it knows there is one to remove. */
    let storedKey: string | undefined;
    try {
      const issued = await this.atVendor(command, 'complete', stopwatch, (signal) =>
        client.completeIssuance(request, vendorState, { signal }),
      );
      if (issued.pdf.subarray(0, 5).toString('latin1') !== '%PDF-') {
        this.deps.log.warn({ vendor: command.vendor, document: command.document }, 'vendor document is not a PDF');
        throw new VendorError(command.vendor, null, `${command.vendor} answered a document that is not a PDF.`);
      }
      issuanceId = randomUUID();
      objectKey = certificateObjectKey(issuanceId);
      const storing = performance.now();
      await this.deps.objects.put(objectKey, issued.pdf, { contentType: 'application/pdf' });
      storedKey = objectKey;
      stopwatch.storageMs += performance.now() - storing;
      const issuedAt = this.now().getTime();
      await this.deps.issuances.record({
        id: issuanceId,
        authenticationStateId: stateId,
        userId: command.userId,
        assignmentId: command.assignmentId,
        vendor: command.vendor,
        document: command.document,
        objectKey,
        byteSize: issued.pdf.length,
        vendorReference: issued.vendorReference,
        createdAt: issuedAt,
        expiresAt: issuedAt + this.deps.retentionDays * DAY_MS,
        deletedAt: null,
      });
    } catch (error) {
      if (storedKey !== undefined) await this.removeUnrecorded(stateId, storedKey);
      await this.deps.states.release(stateId).catch(() => {});
      throw error;
    }
    this.deps.log.info({ vendor: command.vendor, document: command.document, issuanceId }, 'certificate issued');
    return { response: await this.answerWithUrl(objectKey), authenticationId: stateId };
  }

  /**
   * After a failed issuance record: a stored PDF with no record would never be swept by retention,
   * so it is removed. A record that did commit (the error came after it) keeps its PDF. So does one
   * whose fate cannot be read now, or whose PDF cannot be deleted; the log then names the object,
   * never the person.
   */
  private async removeUnrecorded(stateId: string, objectKey: string): Promise<void> {
    try {
      if (await this.deps.issuances.findByAuthenticationState(stateId)) return;
      await this.deps.objects.delete(objectKey);
    } catch {
      this.deps.log.error(
        { objectKey },
        'certificate PDF kept after a failed issuance record; remove it if unrecorded',
      );
    }
  }

  /** Answers an issued document with a fresh URL; a PDF removed by retention counts as expired. */
  private async reissue(stateId: string, vendor: IssuingVendor): Promise<IssueAnswer> {
    const issuance = await this.deps.issuances.findByAuthenticationState(stateId);
    if (!issuance || issuance.deletedAt !== null || issuance.expiresAt <= this.now().getTime()) {
      throw new AuthExpired(vendor.authTtlSeconds);
    }
    return { response: await this.answerWithUrl(issuance.objectKey), authenticationId: stateId };
  }

  private async answerWithUrl(objectKey: string): Promise<CertificateResponse> {
    const preSignedUrl = await this.deps.objects.signedGetUrl(objectKey, this.deps.urlTtlSeconds);
    return { preSignedUrl, stepData: null, twoWayInfo: null };
  }
}
