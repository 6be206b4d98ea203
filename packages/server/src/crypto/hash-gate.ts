import { AppError } from '@photorelay/contract/errors';

/**
 * At most `slots` argon2 computations at once, the rest wait in line: a login flood of unbounded
 * hashes took libuv's whole thread pool (which the ingest's file writes need too) and the CPU, and
 * slowed one upload from 0.07 s to 5 s. A line longer than `maxWaiting` is refused
 * (TooManyRequests) instead of growing without end.
 */
export class HashGate {
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(
    readonly slots: number,
    readonly maxWaiting: number,
  ) {}

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.running >= this.slots) {
      if (this.waiting.length >= this.maxWaiting) throw new AppError('TooManyRequests');
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else {
      this.running++;
    }
    try {
      return await work();
    } finally {
      // The slot passes straight to the next in line, so `running` only drops when nobody waits.
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    }
  }
}

// One at a time: they run on one low-priority thread (hash-worker.ts); a quarter of the cores
// would be more on big machines, but one verify (about 40 ms) already answers 25 logins a second.
export const passwordHashGate = new HashGate(1, 200);
