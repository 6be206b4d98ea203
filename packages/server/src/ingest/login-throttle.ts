/**
 * Slows and then blocks repeated wrong passwords from one remote address, shared by the FTP
 * and SFTP servers (pass one instance to both). Counting is per address, not per user name,
 * because guessing usually walks through names; a successful login clears the address, since
 * many cameras of one agency often share one NAT address at a venue.
 */

export interface LoginThrottleOptions {
  /** Failures after which every further attempt is answered late. Default 5. */
  slowAfter?: number;
  /** Extra wait per failure beyond `slowAfter`, capped by `maxDelayMs`. Default 1000 ms. */
  delayStepMs?: number;
  maxDelayMs?: number;
  /** Failures after which the address is refused without checking the password. Default 10. */
  blockAfter?: number;
  /** How long a block lasts. Default 15 minutes. */
  blockMs?: number;
  /** Failures older than this are forgotten. Default 15 minutes. */
  windowMs?: number;
  /** Addresses remembered at most (oldest dropped first), so a flood cannot grow memory. */
  maxAddresses?: number;
  now?: () => number;
}

export class LoginBlockedError extends Error {
  constructor(readonly retryAfterMs: number) {
    super('Too many failed logins from your address; try again later');
  }
}

interface AddressState {
  failures: number;
  lastFailure: number;
  blockedUntil: number;
}

export class LoginThrottle {
  private readonly state = new Map<string, AddressState>();
  private readonly o: Required<LoginThrottleOptions>;

  constructor(options: LoginThrottleOptions = {}) {
    this.o = {
      slowAfter: 5,
      delayStepMs: 1000,
      maxDelayMs: 5000,
      blockAfter: 10,
      blockMs: 15 * 60_000,
      windowMs: 15 * 60_000,
      maxAddresses: 10_000,
      now: Date.now,
      ...options,
    };
  }

  /** Waits as long as the address has earned; throws LoginBlockedError while it is blocked. */
  async gate(address: string): Promise<void> {
    const s = this.current(address);
    if (!s) return;
    const now = this.o.now();
    if (s.blockedUntil > now) throw new LoginBlockedError(s.blockedUntil - now);
    const delay = this.delayFor(s.failures);
    if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
  }

  /** Records the outcome of one password check. */
  record(address: string, ok: boolean): void {
    if (ok) {
      this.state.delete(address);
      return;
    }
    const now = this.o.now();
    const s = this.current(address) ?? { failures: 0, lastFailure: now, blockedUntil: 0 };
    s.failures++;
    s.lastFailure = now;
    if (s.failures >= this.o.blockAfter) s.blockedUntil = now + this.o.blockMs;
    // Re-insert so Map order is least-recently-failed first, for pruning.
    this.state.delete(address);
    this.state.set(address, s);
    if (this.state.size > this.o.maxAddresses) {
      const oldest = this.state.keys().next().value;
      if (oldest !== undefined) this.state.delete(oldest);
    }
  }

  isBlocked(address: string): boolean {
    const s = this.current(address);
    return !!s && s.blockedUntil > this.o.now();
  }

  private delayFor(failures: number): number {
    if (failures < this.o.slowAfter) return 0;
    return Math.min(this.o.maxDelayMs, (failures - this.o.slowAfter + 1) * this.o.delayStepMs);
  }

  private current(address: string): AddressState | undefined {
    const s = this.state.get(address);
    if (!s) return undefined;
    const now = this.o.now();
    if (s.blockedUntil <= now && now - s.lastFailure > this.o.windowMs) {
      this.state.delete(address);
      return undefined;
    }
    if (s.blockedUntil && s.blockedUntil <= now) {
      // A served block starts over, so the next failure is slowed again rather than blocked at once.
      s.blockedUntil = 0;
      s.failures = this.o.slowAfter;
    }
    return s;
  }
}
