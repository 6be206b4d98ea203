// The picture scaler adapter (issue 25): every decode of an untrusted picture runs in a small
// long-lived child process (picture-scaler-process.ts) with a deadline and a memory limit. A
// decode that overruns either is killed with its process, which starts again for the next
// picture; the caller gets a PictureRefusedError with a plain reason, never a server at 3 GB.
import { type ChildProcess, fork } from 'node:child_process';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { ScaleReply, ScaleRequest, ScalerReady } from './protocol.ts';

export interface PictureLimits {
  /** How long one picture may take in the scaler process (ms). */
  timeMs: number;
  /** The scaler process's resident memory at most (bytes); above it, it is killed. */
  memoryBytes: number;
  /** What a picture's header may claim that decoding holds (bytes); above it, it is not decoded. */
  decodeBytes: number;
  /** The process's script instead of the one beside this module (the benchmark runs the bundle's). */
  processFile?: string;
}

export interface PictureScaler {
  /** The picture at `file` as a JPEG that fits `edge` × `edge`; null when it is no picture sharp reads. */
  scale(file: string, options: { edge: number; quality: number }): Promise<Buffer | null>;
  /** The scaler process's pid while it runs (tests and benchmarks measure it). */
  readonly pid: number | undefined;
  close(): Promise<void>;
}

/** A picture refused by its header, or whose decode was killed: `reason` says why, in plain words. */
export class PictureRefusedError extends Error {
  constructor(readonly reason: string) {
    super(`picture refused: ${reason}`);
  }
}

/** How often the scaler's memory is looked at while it works (ms). */
const watchEveryMs = 20;
/** How long node may take to start the process and load sharp (a loaded 2-core machine: seconds). */
const startLimitMs = 60_000;
/** A process that kept this share of its limit after a picture starts afresh (glibc keeps freed memory). */
const recycleShare = 0.5;
// The process runs no JavaScript worth a heap: small V8 limits leave the budget to libvips.
const processV8Flags = ['--max-old-space-size=64', '--max-semi-space-size=1'];

/** picture-scaler-process beside this module: .ts from source (through tsx), .mjs in the bundle. */
function processCommand(): { file: string; execArgv: string[] } {
  for (const name of ['picture-scaler-process.mjs', 'picture-scaler-process.ts']) {
    const file = fileURLToPath(new URL(name, import.meta.url));
    if (!fs.existsSync(file)) continue;
    const loader = name.endsWith('.ts') ? ['--import', import.meta.resolve('tsx')] : [];
    return { file, execArgv: [...loader, ...processV8Flags] };
  }
  throw new Error('picture-scaler-process is missing beside the server code');
}

/** util-linux's prlimit, where there is one. */
const prlimit = ['/usr/bin/prlimit', '/bin/prlimit'].find((file) => fs.existsSync(file));
/** What libjpeg, libvips and glib say when an allocation failed (RLIMIT_DATA). */
const outOfMemory = /insufficient memory|out of memory|cannot allocate|failed to allocate/i;

/** Resident memory of a process (bytes) from /proc; 0 where there is none (not Linux, or gone). */
function residentBytes(pid: number): number {
  try {
    const kb = /^VmRSS:\s+(\d+) kB/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb ? Number(kb) * 1024 : 0;
  } catch {
    return 0;
  }
}

const megabytes = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MB`;

export function createPictureScaler(limits: PictureLimits): PictureScaler {
  let nextId = 1;
  let closed = false;
  // One picture at a time: a camera's 50 MP JPEG takes a core for a moment, and the memory
  // limit is one picture's.
  let queue: Promise<unknown> = Promise.resolve();

  let child: { scaler: ChildProcess; ready: Promise<void> } | undefined;

  function start() {
    const { file, execArgv } = limits.processFile
      ? { file: limits.processFile, execArgv: processV8Flags }
      : processCommand();
    // The hard stop beside the watchdog: RLIMIT_DATA makes an allocation past the limit fail at
    // once (libjpeg answers "Insufficient memory"), where 20 ms of polling could let a fast one
    // run on. prlimit execs node in the same process, so the IPC channel stays; without prlimit
    // (not Linux) the watchdog alone stops it.
    const limited = prlimit
      ? { execPath: prlimit, execArgv: [`--data=${limits.memoryBytes}`, process.execPath, ...execArgv] }
      : { execArgv };
    const scaler = fork(file, [], {
      ...limited,
      serialization: 'advanced',
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    });
    // Idle, it must not keep the server (or a test) alive.
    scaler.unref();
    scaler.channel?.unref();
    const ready = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        stop(scaler);
        reject(new Error(`the picture scaler did not start within ${startLimitMs} ms`));
      }, startLimitMs);
      scaler.on('message', (message: ScaleReply | ScalerReady) => {
        if (message.kind !== 'ready') return;
        clearTimeout(timer);
        resolve();
      });
      scaler.once('exit', (code, signal) => {
        clearTimeout(timer);
        reject(new Error(`the picture scaler stopped while starting (${signal ?? `exit ${code}`})`));
      });
    });
    ready.catch(() => {});
    scaler.once('exit', () => {
      if (child?.scaler === scaler) child = undefined;
    });
    scaler.channel?.ref();
    void ready.finally(() => scaler.channel?.unref());
    return { scaler, ready };
  }

  function stop(scaler: ChildProcess) {
    if (child?.scaler === scaler) child = undefined;
    scaler.kill('SIGKILL');
  }

  async function scaleOne(file: string, edge: number, quality: number): Promise<Buffer | null> {
    if (closed) throw new Error('the picture scaler is closed');
    child ??= start();
    const { scaler, ready } = child;
    await ready;
    const request: ScaleRequest = { id: nextId++, file, edge, quality, decodeBytes: limits.decodeBytes };
    return new Promise<Buffer | null>((resolve, reject) => {
      let settled = false;
      const finish = (outcome: () => void) => {
        if (settled) return;
        settled = true;
        clearTimeout(deadline);
        clearInterval(watch);
        scaler.off('message', onMessage);
        scaler.off('exit', onExit);
        scaler.channel?.unref();
        outcome();
      };
      const onMessage = (reply: ScaleReply) => {
        if (reply.id !== request.id) return;
        // Freed native memory mostly stays with the process: one that kept much of it starts afresh.
        if (scaler.pid && residentBytes(scaler.pid) > limits.memoryBytes * recycleShare) stop(scaler);
        finish(() => {
          if (reply.kind === 'done')
            resolve(Buffer.from(reply.bytes.buffer, reply.bytes.byteOffset, reply.bytes.length));
          else if (reply.kind === 'refused') reject(new PictureRefusedError(reply.reason));
          else if (outOfMemory.test(reply.reason)) {
            // Freed or not, glib keeps what it took: the next picture gets a new process.
            stop(scaler);
            reject(
              new PictureRefusedError(
                `decoding it took more than ${megabytes(limits.memoryBytes)} of memory`,
              ),
            );
          } else resolve(null);
        });
      };
      // Died on this picture (V8 out of memory under the limit, a crash in a decoder): the
      // picture is refused, not tried again at every look.
      const onExit = (code: number | null, signal: NodeJS.Signals | null) =>
        finish(() =>
          reject(
            new PictureRefusedError(
              `the picture scaler stopped while decoding it (${signal ?? `exit ${code}`})`,
            ),
          ),
        );
      const deadline = setTimeout(() => {
        stop(scaler);
        finish(() => reject(new PictureRefusedError(`decoding it took longer than ${limits.timeMs} ms`)));
      }, limits.timeMs);
      const watch = setInterval(() => {
        const resident = scaler.pid ? residentBytes(scaler.pid) : 0;
        if (resident <= limits.memoryBytes) return;
        stop(scaler);
        finish(() =>
          reject(
            new PictureRefusedError(`decoding it took more than ${megabytes(limits.memoryBytes)} of memory`),
          ),
        );
      }, watchEveryMs);
      scaler.on('message', onMessage);
      scaler.on('exit', onExit);
      scaler.channel?.ref();
      try {
        scaler.send(request);
      } catch (error) {
        stop(scaler);
        finish(() => reject(error));
      }
    });
  }

  return {
    scale(file, { edge, quality }) {
      const next = queue.then(() => scaleOne(file, edge, quality));
      queue = next.catch(() => {});
      return next;
    },
    get pid() {
      return child?.scaler.pid;
    },
    async close() {
      closed = true;
      if (child) stop(child.scaler);
    },
  };
}
