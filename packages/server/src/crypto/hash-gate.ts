import os from 'node:os';
import { AppError } from '@photorelay/contract/errors';

/**
 * At most `slots` argon2 computations at once, the rest wait in line. argon2 runs on libuv's
 * thread pool (4 threads) that the FTP ingest's file writes also need: a login flood of unbounded
 * hashes took all of them and slowed one upload from 0.07 s to 5 s. A line longer than `maxWaiting`
 * is refused (TooManyRequests) instead of growing without end.
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

// Half the cores (at least one): the other half keeps serving HTTP, FTP and SFTP.
export const passwordHashGate = new HashGate(Math.max(1, Math.floor(os.availableParallelism() / 2)), 200);
