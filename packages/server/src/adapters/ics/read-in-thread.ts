// Reads a feed on a worker thread of its own (read-thread.ts) with a deadline and a heap limit:
// ical.js's expansion is synchronous and, for a rule that never matches, endless inside one call,
// so on the main thread one calendar URL stopped HTTP, FTP and SFTP for every team. Here a feed
// that overruns ends its thread and fails as an ordinary, plainly worded IcsLimitError.
import { Worker } from 'node:worker_threads';
import { type IcsEvent, IcsLimitError, IcsParseError } from './parse.ts';
import type { ReadReply, ReadRequest } from './read-protocol.ts';
import { defaultMaxSteps } from './recur-limits.ts';

// From the sources (tsx) the thread is the .ts file beside this one, loaded through tsx; the
// server bundle (scripts/build-server.mjs) builds it as ics-read-thread.mjs beside main.mjs.
const fromSources = import.meta.url.endsWith('.ts');
const threadUrl = fromSources
  ? new URL('./read-thread.ts', import.meta.url)
  : new URL('./ics-read-thread.mjs', import.meta.url);
// A worker does not inherit tsx's loader: the sources register it first.
const threadSource = fromSources
  ? `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(threadUrl.href)}); })`
  : undefined;

export interface ThreadReadOptions {
  from: Date;
  to: Date;
  defaultZone: string;
  maxEvents: number;
  /** Past `maxEvents` the feed fails (tooManyEntries) instead of being cut short. */
  refuseOverMaxEvents?: boolean;
  maxSteps?: number;
  /** The thread's whole life, parse and expansion; then it is ended. */
  timeMs: number;
  /** The thread's heap (old generation) in MB. */
  memoryMb: number;
  batchSize?: number;
}

/** A feed being read on its thread: its name, then its occurrences in batches. */
export interface ThreadReader {
  name: string | null;
  batches: AsyncGenerator<IcsEvent[], void, undefined>;
  /** Complete once `batches` is done. */
  readonly skipped: number;
  readonly truncated: boolean;
}

/**
 * Starts the thread and waits for the feed's head (a feed that is no calendar fails here). The
 * caller walks `batches` to the end or returns early (the thread is ended then).
 */
export async function readIcsInThread(text: string, options: ThreadReadOptions): Promise<ThreadReader> {
  const request: ReadRequest = {
    text,
    from: options.from.getTime(),
    to: options.to.getTime(),
    defaultZone: options.defaultZone,
    maxEvents: options.maxEvents,
    maxSteps: options.maxSteps ?? defaultMaxSteps,
    refuseOverMaxEvents: options.refuseOverMaxEvents ?? false,
    batchSize: options.batchSize ?? 1000,
  };
  const resourceLimits = {
    maxOldGenerationSizeMb: options.memoryMb,
    maxYoungGenerationSizeMb: Math.min(32, Math.max(4, Math.round(options.memoryMb / 8))),
  };
  const thread = threadSource
    ? new Worker(threadSource, { eval: true, workerData: request, resourceLimits })
    : new Worker(threadUrl, { workerData: request, resourceLimits });

  // Replies wait here until the caller takes them; `failure` ends the queue.
  const queue: ReadReply[] = [];
  let failure: Error | undefined;
  let finished = false;
  let wake: (() => void) | undefined;
  const notify = () => {
    wake?.();
    wake = undefined;
  };
  const fail = (error: Error) => {
    if (finished || failure) return;
    failure = error;
    void thread.terminate();
    notify();
  };
  const deadline = setTimeout(
    () =>
      fail(
        new IcsLimitError(
          'timeLimit',
          `Reading the calendar took longer than ${Math.round(options.timeMs / 1000)} s and was stopped`,
        ),
      ),
    options.timeMs,
  );
  thread.on('message', (reply: ReadReply) => {
    queue.push(reply);
    notify();
  });
  thread.on('error', (error: Error & { code?: string }) => {
    if (error.code === 'ERR_WORKER_OUT_OF_MEMORY') {
      fail(
        new IcsLimitError(
          'memoryLimit',
          `Reading the calendar needed more than ${options.memoryMb} MB and was stopped`,
        ),
      );
    } else fail(new IcsLimitError('readerFailed', `The calendar reader failed: ${error.message}`));
  });
  thread.on('exit', () => {
    clearTimeout(deadline);
    // Replies sent before the exit are still queued; an exit before `done` is a failure.
    if (!finished) fail(new IcsLimitError('readerFailed', 'The calendar reader stopped before the end'));
    notify();
  });

  const state = { skipped: 0, truncated: false };
  async function next(): Promise<ReadReply> {
    for (;;) {
      const reply = queue.shift();
      if (reply) return reply;
      if (failure) throw failure;
      await new Promise<void>((resolve) => {
        wake = resolve;
      });
    }
  }
  const stop = () => {
    clearTimeout(deadline);
    void thread.terminate();
  };

  const head = await next().catch((error) => {
    stop();
    throw error;
  });
  if (head.type === 'error') {
    stop();
    throw replyError(head);
  }
  async function* batches(): AsyncGenerator<IcsEvent[], void, undefined> {
    try {
      for (;;) {
        const reply = await next();
        if (reply.type === 'batch') yield reply.events;
        else if (reply.type === 'done') {
          finished = true;
          state.skipped = reply.skipped;
          state.truncated = reply.truncated;
          return;
        } else if (reply.type === 'error') throw replyError(reply);
      }
    } finally {
      stop();
    }
  }
  return {
    name: head.type === 'head' ? head.name : null,
    batches: batches(),
    get skipped() {
      return state.skipped;
    },
    get truncated() {
      return state.truncated;
    },
  };
}

function replyError(reply: Extract<ReadReply, { type: 'error' }>): Error {
  if (reply.reason) return new IcsLimitError(reply.reason, reply.message);
  if (reply.parse) return new IcsParseError(reply.message);
  return new IcsLimitError('readerFailed', `The calendar reader failed: ${reply.message}`);
}
