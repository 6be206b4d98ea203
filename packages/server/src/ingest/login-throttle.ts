import { storableText } from './backend.ts';

/**
 * Slows and then blocks wrong passwords for FTP and SFTP (one instance shared by both servers).
 *
 * Counted per (remote address, user name): many cameras of one agency share one NAT address at a
 * venue, so one camera with a wrong password, or one guesser of one account, must not lock out
 * its neighbours. A whole address is refused only while it has failed on many different user
 * names (someone walking through names): 10 names of accounts, or 50 names no account has, within
 * 5 minutes. Made-up names count apart and far higher, so a few of them (a typo, or someone who
 * wants the venue's cameras locked out) do not block the address, while a scanner still is.
 * A success clears only its own pair.
 *
 * Each attempt is counted (as a failure) before its password is checked and cleared after a
 * success, so parallel guesses cannot all pass a gate that has not yet seen their failures.
 * Parallel attempts of one pair take turns, `parallelPerPair` at a time (per process): a crew of
 * 16 cameras on one project account logging in at the same instant behind a venue's NAT would
 * otherwise be counted as 16 failures in flight, slowed from the 6th and blocked from the 11th
 * (issue 29 item 3). Taking turns, each success clears the pair for the next ones, while a
 * guesser's parallel tries still meet the failures of the ones before.
 * The counts live in a store: the database in the product (every ingest process shares them),
 * memory for the protocol tests.
 */

export interface LoginThrottleOptions {
  /** Failures of one pair after which every further attempt is answered late. Default 5. */
  slowAfter?: number;
  /** Extra wait per failure beyond `slowAfter`, capped by `maxDelayMs`. Default 1000 ms. */
  delayStepMs?: number;
  maxDelayMs?: number;
  /** Failures of one pair after which it is refused without checking the password. Default 10. */
  blockAfter?: number;
  /** How long a block of one pair lasts. Default 5 minutes. */
  blockMs?: number;
  /** Failures of one pair older than this are forgotten. Default 15 minutes. */
  windowMs?: number;
  /** Distinct failing account names within `addressWindowMs` after which the whole address is refused. Default 10. */
  addressBlockAfterNames?: number;
  /** The same for names no account has: a scanner, not a camera. Default 50. */
  addressBlockAfterUnknownNames?: number;
  /** The failures an address block counts are this recent, so it ends this long after the last. Default 5 minutes. */
  addressWindowMs?: number;
  /** Attempts of one pair checked at once in this process; more wait their turn. Default 4. */
  parallelPerPair?: number;
  store?: LoginThrottleStore;
  now?: () => number;
}

export interface PairPolicy {
  now: Date;
  windowStart: Date;
  blockEnd: Date;
  slowAfter: number;
  blockAfter: number;
}

/** Where the counts live. `begin` must count atomically (concurrent attempts each get their own number). */
export interface LoginThrottleStore {
  /** Distinct user names with a failure at `address` since `since`: account names, and unknown ones. */
  failingNames(address: string, since: Date): Promise<{ known: number; unknown: number }>;
  /**
   * Counts one more attempt of the pair unless it is blocked. Returns the pair's attempts within
   * the window, this one included, and the end of its block (0 = none).
   */
  begin(
    address: string,
    name: string,
    policy: PairPolicy,
  ): Promise<{ attempts: number; blockedUntil: number }>;
  /** 'ok' clears the pair; 'failed' confirms the failure ('unknown': of a name no account has); 'error' takes the attempt back. */
  settle(address: string, name: string, outcome: LoginOutcome): Promise<void>;
}

export type LoginOutcome = 'ok' | 'failed' | 'unknown' | 'error';

export class LoginBlockedError extends Error {
  constructor(
    readonly retryAfterMs: number,
    readonly scope: 'account' | 'address',
  ) {
    super(
      scope === 'account'
        ? 'Too many failed logins for this account from your address; try again later'
        : 'Too many failed logins from your address; try again later',
    );
  }
}

export interface LoginAttempt {
  settle(outcome: LoginOutcome): Promise<void>;
}

/** The key of a user name: what a camera types, without case, spacing or characters a database refuses. */
export function throttleName(username: string): string {
  return storableText(username.normalize('NFC').trim().toLowerCase().slice(0, 128));
}

export class LoginThrottle {
  private readonly o: Required<Omit<LoginThrottleOptions, 'store'>>;
  private readonly store: LoginThrottleStore;

  constructor(options: LoginThrottleOptions = {}) {
    const { store, ...rest } = options;
    this.store = store ?? new MemoryThrottleStore();
    this.o = {
      slowAfter: 5,
      delayStepMs: 1000,
      maxDelayMs: 5000,
      blockAfter: 10,
      blockMs: 5 * 60_000,
      windowMs: 15 * 60_000,
      addressBlockAfterNames: 10,
      addressBlockAfterUnknownNames: 50,
      addressWindowMs: 5 * 60_000,
      parallelPerPair: 4,
      now: Date.now,
      ...rest,
    };
  }

  /**
   * Counts the attempt and waits as long as the pair has earned; throws LoginBlockedError while
   * the pair or the whole address is blocked. Settle the attempt once the password was checked.
   */
  async begin(address: string, username: string): Promise<LoginAttempt> {
    const name = throttleName(username);
    const release = await this.takeTurn(`${address}\n${name}`);
    try {
      return await this.beginInTurn(address, name, release);
    } catch (err) {
      release();
      throw err;
    }
  }

  private readonly turns = new Map<string, { running: number; waiting: Array<() => void> }>();

  /** Waits until fewer than `parallelPerPair` attempts of the pair are being checked. */
  private async takeTurn(key: string): Promise<() => void> {
    let pair = this.turns.get(key);
    if (!pair) {
      pair = { running: 0, waiting: [] };
      this.turns.set(key, pair);
    }
    const turns = pair;
    if (turns.running >= this.o.parallelPerPair)
      await new Promise<void>((resolve) => turns.waiting.push(resolve));
    else turns.running++;
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      clearTimeout(timer);
      const next = turns.waiting.shift();
      if (next)
        next(); // the turn passes on: `running` stays
      else if (--turns.running === 0) this.turns.delete(key);
    };
    // An attempt that is never settled (a bug, a hung backend) gives its turn back after a while.
    const timer = setTimeout(release, 30_000);
    timer.unref?.();
    return release;
  }

  private async beginInTurn(address: string, name: string, release: () => void): Promise<LoginAttempt> {
    const now = this.o.now();
    const windowStart = new Date(now - this.o.windowMs);
    const failing = await this.store.failingNames(address, new Date(now - this.o.addressWindowMs));
    if (
      failing.known >= this.o.addressBlockAfterNames ||
      failing.unknown >= this.o.addressBlockAfterUnknownNames
    )
      throw new LoginBlockedError(this.o.addressWindowMs, 'address');
    const { attempts, blockedUntil } = await this.store.begin(address, name, {
      now: new Date(now),
      windowStart,
      blockEnd: new Date(now + this.o.blockMs),
      slowAfter: this.o.slowAfter,
      blockAfter: this.o.blockAfter,
    });
    if (blockedUntil > now) throw new LoginBlockedError(blockedUntil - now, 'account');
    const delay = this.delayFor(attempts - 1);
    if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
    let settled = false;
    return {
      settle: async (outcome) => {
        if (settled) return;
        settled = true;
        try {
          await this.store.settle(address, name, outcome);
        } finally {
          release();
        }
      },
    };
  }

  private delayFor(failures: number): number {
    if (failures < this.o.slowAfter) return 0;
    return Math.min(this.o.maxDelayMs, (failures - this.o.slowAfter + 1) * this.o.delayStepMs);
  }
}

interface PairState {
  attempts: number;
  failures: number;
  unknownName: boolean;
  lastAttempt: number;
  blockedUntil: number;
}

/** The counts in memory, for one process (the protocol tests); same rules as the database store. */
export class MemoryThrottleStore implements LoginThrottleStore {
  private readonly pairs = new Map<string, PairState>();

  constructor(private readonly maxPairs = 10_000) {}

  async failingNames(address: string, since: Date) {
    const count = { known: 0, unknown: 0 };
    for (const [key, s] of this.pairs)
      if (key.startsWith(`${address}\n`) && s.failures > 0 && s.lastAttempt >= since.getTime())
        count[s.unknownName ? 'unknown' : 'known']++;
    return count;
  }

  async begin(address: string, name: string, p: PairPolicy) {
    const key = `${address}\n${name}`;
    const now = p.now.getTime();
    const s = this.pairs.get(key);
    if (s && s.blockedUntil > now) return { attempts: s.attempts, blockedUntil: s.blockedUntil };
    const next: PairState = !s
      ? { attempts: 1, failures: 0, unknownName: false, lastAttempt: now, blockedUntil: 0 }
      : s.lastAttempt < p.windowStart.getTime()
        ? { attempts: 1, failures: 0, unknownName: false, lastAttempt: now, blockedUntil: 0 }
        : s.blockedUntil > 0 // a served block starts over slowed, not blocked at once
          ? { ...s, attempts: p.slowAfter + 1, lastAttempt: now, blockedUntil: 0 }
          : { ...s, attempts: s.attempts + 1, lastAttempt: now };
    if (next.attempts > p.blockAfter) next.blockedUntil = p.blockEnd.getTime();
    // Re-insert so Map order is least recently tried first, for pruning.
    this.pairs.delete(key);
    this.pairs.set(key, next);
    if (this.pairs.size > this.maxPairs) {
      const oldest = this.pairs.keys().next().value;
      if (oldest !== undefined) this.pairs.delete(oldest);
    }
    return { attempts: next.attempts, blockedUntil: next.blockedUntil };
  }

  async settle(address: string, name: string, outcome: LoginOutcome) {
    const key = `${address}\n${name}`;
    const s = this.pairs.get(key);
    if (!s) return;
    if (outcome === 'ok') this.pairs.delete(key);
    else if (outcome === 'failed' || outcome === 'unknown') {
      s.failures++;
      s.unknownName = outcome === 'unknown';
    } else s.attempts = Math.max(0, s.attempts - 1);
  }
}
