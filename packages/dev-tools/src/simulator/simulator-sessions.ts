import type { CertificateDocument } from '@ferry/contracts';
import type { SimulatorClock } from './simulator-clock.js';

export type SessionStatus = 'pending' | 'approved' | 'rejected' | 'expired' | 'consumed';

export interface SimulatedSession {
  id: string;
  document: CertificateDocument;
  provider: string;
  /** A digest of who asked, so the second call must be for the same person. Never the digits. */
  personDigest: string;
  createdAt: number;
  expiresAt: number;
  approvedAt: number | null;
  rejectedCode: string | null;
  consumedAt: number | null;
}

export interface SessionSummary {
  id: string;
  document: CertificateDocument;
  provider: string;
  status: SessionStatus;
  createdAt: string;
  expiresAt: string;
}

export interface SimulatorSessionsOptions {
  clock: SimulatorClock;
  ttlMs: number;
  /** The user "approves" this long after the first call; 'never' waits for the control endpoint. */
  approvalDelayMs: number | 'never';
}

/**
 * The simulated user side of simple authentication: PENDING → APPROVED | REJECTED | EXPIRED →
 * CONSUMED. Approval by delay is computed from the clock when asked, so moving the clock approves.
 */
export class SimulatorSessions {
  private readonly sessions = new Map<string, SimulatedSession>();
  approvalDelayMs: number | 'never';
  constructor(private readonly options: SimulatorSessionsOptions) {
    this.approvalDelayMs = options.approvalDelayMs;
  }

  get ttlMs(): number {
    return this.options.ttlMs;
  }

  create(session: Omit<SimulatedSession, 'createdAt' | 'expiresAt' | 'approvedAt' | 'rejectedCode' | 'consumedAt'>) {
    const now = this.options.clock.now();
    this.prune(now);
    const created: SimulatedSession = {
      ...session,
      createdAt: now,
      expiresAt: now + this.options.ttlMs,
      approvedAt: null,
      rejectedCode: null,
      consumedAt: null,
    };
    this.sessions.set(created.id, created);
    return created;
  }

  get(id: string): SimulatedSession | undefined {
    return this.sessions.get(id);
  }

  statusOf(session: SimulatedSession): SessionStatus {
    const now = this.options.clock.now();
    if (session.consumedAt !== null) return 'consumed';
    if (session.rejectedCode !== null) return 'rejected';
    if (now >= session.expiresAt) return 'expired';
    if (session.approvedAt !== null) return 'approved';
    if (this.approvalDelayMs !== 'never' && now >= session.createdAt + this.approvalDelayMs) return 'approved';
    return 'pending';
  }

  /** `latest` picks the newest pending session: handy for a person clicking through the web funnel. */
  find(idOrLatest: string): SimulatedSession | undefined {
    if (idOrLatest !== 'latest') return this.sessions.get(idOrLatest);
    return [...this.sessions.values()].reverse().find((s) => this.statusOf(s) === 'pending');
  }

  approve(session: SimulatedSession): void {
    session.approvedAt = this.options.clock.now();
  }

  reject(session: SimulatedSession, code: string): void {
    session.rejectedCode = code;
  }

  consume(session: SimulatedSession): void {
    session.consumedAt = this.options.clock.now();
  }

  summaries(): SessionSummary[] {
    return [...this.sessions.values()].map((s) => ({
      id: s.id,
      document: s.document,
      provider: s.provider,
      status: this.statusOf(s),
      createdAt: new Date(s.createdAt).toISOString(),
      expiresAt: new Date(s.expiresAt).toISOString(),
    }));
  }

  clear(): void {
    this.sessions.clear();
  }

  /** Keeps memory bounded: a session is forgotten two lifetimes after it started. */
  private prune(now: number): void {
    for (const [id, session] of this.sessions) {
      if (now - session.createdAt > 2 * this.options.ttlMs) this.sessions.delete(id);
      else break;
    }
  }
}
