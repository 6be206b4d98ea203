// The script runner adapter: user scripts run in QuickJS (quickjs-emscripten) on a worker thread
// of their own, with no file system, network, timers or host objects, a fresh context per
// script and run, and QuickJS's time (interrupt) and memory limits. The host adds a hard stop:
// a run that has not answered a second after its time limit ends the thread, which is started
// again for the next run, so no script can hold up the server.
import { Worker } from 'node:worker_threads';
import { catalog } from '@photorelay/xmp/index';
import type {
  Catalog,
  Limits,
  RunResult,
  ScriptFailure,
  ScriptInput,
  ScriptSource,
  ThreadReply,
  ThreadRequest,
} from './protocol.ts';

export type { RunResult, ScriptFailure, ScriptInput, ScriptOutput, ScriptSource } from './protocol.ts';

export interface ScriptSandbox {
  run(scripts: ScriptSource[], input: ScriptInput): Promise<RunResult>;
  /** The syntax check before a script is stored; null when it compiles. */
  check(script: ScriptSource): Promise<ScriptFailure | null>;
  close(): Promise<void>;
}

// Past the in-thread limit: QuickJS stops a loop at its next interrupt check, a busy machine adds some.
const graceMs = 2000;
const checkMs = 5000;

function catalogKinds(): Catalog {
  const kinds: Catalog['kinds'] = {};
  const aliases: Catalog['aliases'] = {};
  for (const def of catalog) {
    kinds[def.id] = def.arrayOfStructures ? 'structs' : def.type;
    for (const alias of def.vars) aliases[alias.toLowerCase()] = def.id;
  }
  return { kinds, aliases };
}

// From the sources (tsx) the thread is the .ts file beside this one, loaded through tsx; the
// server bundle (scripts/build-server.mjs) builds it as script-sandbox-thread.mjs beside main.mjs.
const fromSources = import.meta.url.endsWith('.ts');
const threadUrl = fromSources
  ? new URL('./sandbox-thread.ts', import.meta.url)
  : new URL('./script-sandbox-thread.mjs', import.meta.url);
// A worker does not inherit tsx's loader: the sources register it first.
const threadSource = fromSources
  ? `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(threadUrl.href)}); })`
  : undefined;

type Pending = { request: ThreadRequest; resolve: (reply: ThreadReply) => void; reject: (e: Error) => void };

export function createScriptSandbox(limits: Limits): ScriptSandbox {
  const catalogData = catalogKinds();
  let worker: Worker | null = null;
  let ready: Promise<void> | null = null;
  let nextId = 1;
  const queue: Pending[] = [];
  let current: { pending: Pending; timer: NodeJS.Timeout } | null = null;
  let closed = false;

  function start(): Promise<void> {
    const thread = threadSource
      ? new Worker(threadSource, { eval: true, workerData: catalogData })
      : new Worker(threadUrl, { workerData: catalogData });
    worker = thread;
    ready = new Promise<void>((resolve, reject) => {
      const onMessage = (message: unknown) => {
        if (message && typeof message === 'object' && 'ready' in message) return resolve();
        const reply = message as ThreadReply;
        if (!current || current.pending.request.id !== reply.id) return;
        const { pending, timer } = current;
        clearTimeout(timer);
        current = null;
        pending.resolve(reply);
        pump();
      };
      thread.on('message', onMessage);
      thread.on('error', (error) => {
        reject(error);
        stopThread(thread, error);
      });
      thread.on('exit', () => stopThread(thread, new Error('the script sandbox stopped')));
    });
    // Held only while it has work (see pump); the listeners above ref it, and a thread unref'd
    // before them kept the process from exiting (the int tests hung at the end).
    thread.ref();
    return ready;
  }

  /** Ends a thread and fails the run it had; the next run starts a new one. */
  function stopThread(thread: Worker, error: Error) {
    if (worker !== thread) return;
    worker = null;
    ready = null;
    void thread.terminate();
    if (current) {
      clearTimeout(current.timer);
      current.pending.reject(error);
      current = null;
    }
    pump();
  }

  function pump() {
    if (current || closed) return;
    const pending = queue.shift();
    // An idle sandbox does not keep the process alive; one with work does, until it answers.
    if (!pending) return worker?.unref();
    worker?.ref();
    void (async () => {
      try {
        if (!worker || !ready) await start();
        else await ready;
      } catch (error) {
        pending.reject(error as Error);
        return pump();
      }
      const thread = worker;
      if (!thread) return pending.reject(new Error('the script sandbox stopped'));
      const timer = setTimeout(
        () => stopThread(thread, new Error(`time limit of ${pending.request.limits.timeMs} ms exceeded`)),
        pending.request.limits.timeMs + graceMs,
      );
      current = { pending, timer };
      thread.postMessage(pending.request);
    })();
  }

  function send(request: ThreadRequest): Promise<ThreadReply> {
    if (closed) return Promise.reject(new Error('the script sandbox is closed'));
    return new Promise((resolve, reject) => {
      queue.push({ request, resolve, reject });
      pump();
    });
  }

  return {
    async run(scripts, input) {
      try {
        const reply = await send({ id: nextId++, kind: 'run', scripts, input, limits });
        if (reply.kind !== 'run') throw new Error('unexpected sandbox reply');
        return reply.result;
      } catch (error) {
        // The thread was ended (hard time limit) or died: the script's failure, not the server's.
        return {
          ok: false,
          error: { position: scripts.map((s) => s.name).join(', '), message: (error as Error).message },
        };
      }
    },
    async check(script) {
      try {
        // Compiling runs no script code: a busy machine must not make a good script fail its check.
        const checkLimits = { ...limits, timeMs: Math.max(limits.timeMs, checkMs) };
        const reply = await send({ id: nextId++, kind: 'check', script, limits: checkLimits });
        if (reply.kind !== 'check') throw new Error('unexpected sandbox reply');
        return reply.error;
      } catch (error) {
        return { position: script.name, message: (error as Error).message };
      }
    },
    async close() {
      closed = true;
      for (const pending of queue.splice(0)) pending.reject(new Error('the script sandbox is closed'));
      if (worker) await worker.terminate();
      worker = null;
    },
  };
}

let shared: ScriptSandbox | undefined;
let sharedKey = '';

/** One sandbox thread per process, for the limits of its config. */
export function scriptSandbox(config: { SCRIPT_TIME_LIMIT_MS: number; SCRIPT_MEMORY_LIMIT_MB: number }) {
  const key = `${config.SCRIPT_TIME_LIMIT_MS}/${config.SCRIPT_MEMORY_LIMIT_MB}`;
  if (!shared || sharedKey !== key) {
    void shared?.close();
    shared = createScriptSandbox({
      timeMs: config.SCRIPT_TIME_LIMIT_MS,
      memoryBytes: config.SCRIPT_MEMORY_LIMIT_MB * 1024 * 1024,
    });
    sharedKey = key;
  }
  return shared;
}
