// The stamp threads: the engine's work on a file's metadata (parse, merge, serialize) on worker
// threads, so that a hostile packet cannot block the caller's event loop (its leases, its other
// transfers), with a time limit per file. A thread that runs over is ended and replaced. A whole
// file (stampJpegFile) is stamped there too, the time limit ending when its metadata is made.
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { MetadataError, type MetadataErrorCode } from './errors.ts';
import type { JpegMetadata } from './jpeg.ts';
import type { FileStampOptions, FileStampResult } from './stamp-file.ts';
import type { HeadStampOptions, HeadStampResult } from './stamp-head.ts';
import type { StampedSegments } from './stamp-segments.ts';
import type { Template } from './template.ts';
import type { VariableOptions } from './variables.ts';

/**
 * The metadata of a file (`meta`), a whole file to stamp into another (`file`), or a file's new
 * head only (`head`, stampJpegHead).
 */
type Request = { template: Template } & (
  | { meta: JpegMetadata; options: VariableOptions }
  | { file: { input: string; output: string }; options: Omit<FileStampOptions, 'timeLimitMs'> }
  | { head: { input: string }; options: Omit<HeadStampOptions, 'timeLimitMs'> }
);
type Result = StampedSegments | FileStampResult | HeadStampResult;
export type StampRequest = Request & { id: number };

export type ThreadReply =
  | { id: number; result: Result }
  | { id: number; error: { code?: MetadataErrorCode; message: string } };

/**
 * Shared with each thread (workerData): the id of the last file whose metadata the thread has
 * made. A file's time limit ends there; the thread sets it without a message (one less message
 * and wake-up of the caller per file), the timer reads it when it fires.
 */
export const builtSlot = (shared: SharedArrayBuffer): Int32Array => new Int32Array(shared, 0, 1);

// From the sources (tsx) the thread is the .ts file beside this one, loaded through tsx (a
// worker does not inherit tsx's loader); the server bundle (scripts/build-server.mjs) builds it
// as stamp-thread.mjs beside main.mjs.
const fromSources = import.meta.url.endsWith('.ts');
const threadUrl = new URL(fromSources ? './stamp-thread.ts' : './stamp-thread.mjs', import.meta.url);
const threadSource = `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(threadUrl.href)}); })`;

/** Two threads: one slow file does not hold up the others; more would only compete for the CPUs. */
const poolSize = Math.max(1, Math.min(2, availableParallelism()));

interface Job {
  request: Request;
  timeLimitMs: number;
  resolve: (result: Result) => void;
  reject: (error: Error) => void;
}

const asBuffer = (bytes: Uint8Array): Buffer => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

class StampThread {
  private readonly worker: Worker;
  private readonly ready: Promise<void>;
  private current: { id: number; job: Job; timer?: NodeJS.Timeout } | undefined;
  private readonly built = builtSlot(new SharedArrayBuffer(4));
  stopped = false;

  constructor(private readonly onIdle: (thread: StampThread) => void) {
    const workerData = this.built.buffer;
    this.worker = fromSources
      ? new Worker(threadSource, { eval: true, workerData })
      : new Worker(threadUrl, { workerData });
    this.worker.unref();
    this.ready = new Promise((resolve, reject) => {
      this.worker.on('message', (message: { ready?: true } | ThreadReply) => {
        if ('ready' in message) return resolve();
        this.settle(message as ThreadReply);
      });
      this.worker.on('error', (error) => {
        reject(error);
        this.stop(error);
      });
      this.worker.on('exit', () => {
        const error = new Error('the stamp thread stopped');
        reject(error);
        this.stop(error);
      });
    });
    this.ready.catch(() => {});
  }

  get busy(): boolean {
    return this.current !== undefined;
  }

  async run(id: number, job: Job): Promise<void> {
    this.current = { id, job };
    this.worker.ref(); // a thread at work keeps the process alive
    try {
      await this.ready;
    } catch (error) {
      return this.stop(error as Error);
    }
    if (this.current?.id !== id) return;
    this.current.timer = setTimeout(() => {
      // Made in time: the rest of the file is copied without a limit.
      if (Atomics.load(this.built, 0) === id) return;
      this.stop(
        new MetadataError(
          'TIME_LIMIT',
          `the metadata took longer than ${job.timeLimitMs} ms to process and was not stamped`,
        ),
      );
    }, job.timeLimitMs);
    this.worker.postMessage({ id, ...job.request } satisfies StampRequest);
  }

  private settle(reply: ThreadReply): void {
    const current = this.current;
    if (!current || current.id !== reply.id) return;
    clearTimeout(current.timer);
    this.current = undefined;
    this.worker.unref();
    if ('error' in reply) {
      const { code, message } = reply.error;
      current.job.reject(code ? new MetadataError(code, message) : new Error(message));
    } else {
      const { result } = reply;
      current.job.resolve(
        'segments' in result
          ? {
              ...result,
              segments: result.segments.map(asBuffer),
              exif: result.exif ? asBuffer(result.exif) : undefined,
              iim: result.iim ? asBuffer(result.iim) : undefined,
            }
          : 'head' in result
            ? {
                ...result,
                head: asBuffer(result.head),
                tail: result.tail ? asBuffer(result.tail) : undefined,
              }
            : result,
      );
    }
    this.onIdle(this);
  }

  /** Ends the thread and fails the file it had; the pool starts a new thread when needed. */
  stop(error: Error): void {
    if (this.stopped) return;
    this.stopped = true;
    const current = this.current;
    this.current = undefined;
    if (current) clearTimeout(current.timer);
    // The file fails once the thread has really ended: after that it writes nothing more, so the
    // caller can remove the output.
    const fail = () => current?.job.reject(error);
    this.worker.terminate().then(fail, fail);
    this.onIdle(this);
  }
}

const threads: StampThread[] = [];
const queue: Job[] = [];
let nextId = 1;

function pump(): void {
  for (let i = threads.length - 1; i >= 0; i--) if (threads[i]?.stopped) threads.splice(i, 1);
  while (queue.length > 0) {
    let thread = threads.find((candidate) => !candidate.busy);
    if (!thread && threads.length < poolSize) {
      thread = new StampThread(() => pump());
      threads.push(thread);
    }
    if (!thread) return;
    const job = queue.shift() as Job;
    void thread.run(nextId++, job);
  }
}

function onThread(request: Request, timeLimitMs: number): Promise<Result> {
  return new Promise((resolve, reject) => {
    queue.push({ request, timeLimitMs, resolve, reject });
    pump();
  });
}

/**
 * The engine's work on one file's metadata on a stamp thread; rejects with MetadataError
 * TIME_LIMIT when it takes longer than `timeLimitMs` (counted from the moment a thread takes it).
 */
export function stampOnThread(
  meta: JpegMetadata,
  template: Template,
  options: VariableOptions,
  timeLimitMs: number,
): Promise<StampedSegments> {
  return onThread({ meta, template, options }, timeLimitMs) as Promise<StampedSegments>;
}

/**
 * stampJpegFile on a stamp thread; TIME_LIMIT when making the new metadata takes longer than
 * `timeLimitMs` (the copy of the image data after it is not limited). The output may be left
 * behind when the thread is stopped: the caller removes it.
 */
export function stampFileOnThread(
  input: string,
  output: string,
  template: Template,
  options: Omit<FileStampOptions, 'timeLimitMs'>,
  timeLimitMs: number,
): Promise<FileStampResult> {
  return onThread({ file: { input, output }, template, options }, timeLimitMs) as Promise<FileStampResult>;
}

/** stampJpegHead on a stamp thread; TIME_LIMIT as for stampFileOnThread. Writes nothing. */
export function stampHeadOnThread(
  input: string,
  template: Template,
  options: Omit<HeadStampOptions, 'timeLimitMs'>,
  timeLimitMs: number,
): Promise<HeadStampResult> {
  return onThread({ head: { input }, template, options }, timeLimitMs) as Promise<HeadStampResult>;
}
