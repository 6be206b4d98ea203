import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/**
 * argon2 on a thread of its own at a lower CPU priority (nice 10 for that thread only, Linux):
 * when the machine is busy, the FTP/SFTP ingest and HTTP (nice 0) come first and password
 * checks take longer; when it is idle they run at full speed. On the libuv pool at normal
 * priority a login flood slowed a camera's upload from 0.07 s to 5 s.
 */
const niceness = 10;

// The worker loads argon2 by its resolved path: the eval'd code has no module location of its own
// (and the server also runs from an esbuild bundle).
const workerCode = `
const { parentPort, workerData } = require('node:worker_threads');
const fs = require('node:fs');
const os = require('node:os');
try {
  const tid = Number(fs.readlinkSync('/proc/thread-self').split('/').pop());
  os.setPriority(tid, workerData.niceness);
} catch {}
const argon2 = require(workerData.argon2);
parentPort.on('message', ({ id, op, a, b }) => {
  try {
    const result = op === 'hash' ? argon2.hashSync(a) : argon2.verifySync(a, b);
    parentPort.postMessage({ id, result });
  } catch (error) {
    parentPort.postMessage({ id, error: String(error && error.message ? error.message : error) });
  }
});
`;

type Pending = { resolve: (value: string | boolean) => void; reject: (error: Error) => void };

/** One thread that runs its calls one at a time; the caller's gate bounds how many wait. */
export class HashWorker {
  private worker: Worker | undefined;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;

  private start(): Worker {
    const argon2 = createRequire(import.meta.url).resolve('@node-rs/argon2');
    const worker = new Worker(workerCode, { eval: true, workerData: { argon2, niceness } });
    worker.unref(); // an idle worker never keeps the process alive; a busy one does (call())
    worker.on('message', (m: { id: number; result?: string | boolean; error?: string }) => {
      const call = this.pending.get(m.id);
      this.pending.delete(m.id);
      if (this.pending.size === 0) worker.unref();
      if (!call) return;
      if (m.error !== undefined || m.result === undefined) call.reject(new Error(m.error ?? 'no result'));
      else call.resolve(m.result);
    });
    const fail = (error: Error) => {
      if (this.worker === worker) this.worker = undefined;
      for (const call of this.pending.values()) call.reject(error);
      this.pending.clear();
    };
    worker.on('error', fail);
    worker.on('exit', () => fail(new Error('password hash worker exited')));
    return worker;
  }

  private call(op: 'hash' | 'verify', a: string, b = ''): Promise<string | boolean> {
    this.worker ??= this.start();
    const id = this.nextId++;
    const worker = this.worker;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      worker.ref();
      worker.postMessage({ id, op, a, b });
    });
  }

  async hash(password: string): Promise<string> {
    return String(await this.call('hash', password));
  }

  async verify(hash: string, password: string): Promise<boolean> {
    return (await this.call('verify', hash, password)) === true;
  }
}
