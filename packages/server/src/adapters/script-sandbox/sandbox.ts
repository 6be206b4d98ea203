// The script runner adapter: user scripts run in QuickJS (quickjs-emscripten) on worker threads
// of their own, with no file system, network, timers or host objects, a fresh context per
// script and run, and QuickJS's time (interrupt) and memory limits. The host adds a hard stop:
// a run that has not answered a second after its time limit ends its thread, which is started
// again for the next run, so no script can hold up the server.
// The threads are a small pool shared by all teams: a team's runs use at most `perTeam` of them
// at once, and the next run goes to the team with the fewest running (oldest first within a
// team), so one team's looping script cannot make another team's pictures wait behind it
// (issue 25: 20 pictures of a script that ran into the hard stop held one shared thread 46 s).
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

/** A failed run whose thread had to be ended (the hard stop, or the thread died). */
export type SandboxRunResult = RunResult | { ok: false; error: ScriptFailure; hardStop: true };

export interface ScriptSandbox {
  /** Runs a picture's scripts; `teamId` shares the threads out fairly (none: never held back). */
  run(scripts: ScriptSource[], input: ScriptInput, owner?: { teamId: number }): Promise<SandboxRunResult>;
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

type Pending = {
  request: ThreadRequest;
  team: number | null;
  resolve: (reply: ThreadReply) => void;
  reject: (e: Error) => void;
};

/** The run's thread was ended (hard stop or crash): the script's failure, not the server's. */
class ThreadEnded extends Error {}

/** One thread of the pool and the run it has (set before the thread is even started). */
interface Slot {
  worker: Worker | null;
  ready: Promise<void> | null;
  current: { pending: Pending; timer?: NodeJS.Timeout } | null;
}

export interface SandboxPool {
  /** Threads at most (each started when first needed). */
  threads: number;
  /** Threads one team's runs may use at once. */
  perTeam: number;
}

export function createScriptSandbox(
  limits: Limits,
  pool: SandboxPool = { threads: 1, perTeam: 1 },
): ScriptSandbox {
  const catalogData = catalogKinds();
  const slots: Slot[] = Array.from({ length: Math.max(1, pool.threads) }, () => ({
    worker: null,
    ready: null,
    current: null,
  }));
  const runningByTeam = new Map<number, number>();
  let nextId = 1;
  const queue: Pending[] = [];
  let closed = false;

  function start(slot: Slot): Promise<void> {
    const thread = threadSource
      ? new Worker(threadSource, { eval: true, workerData: catalogData })
      : new Worker(threadUrl, { workerData: catalogData });
    slot.worker = thread;
    slot.ready = new Promise<void>((resolve, reject) => {
      const onMessage = (message: unknown) => {
        if (message && typeof message === 'object' && 'ready' in message) return resolve();
        const reply = message as ThreadReply;
        const current = slot.current;
        if (!current || current.pending.request.id !== reply.id) return;
        finish(slot);
        current.pending.resolve(reply);
        pump();
      };
      thread.on('message', onMessage);
      thread.on('error', (error) => {
        reject(error);
        stopThread(slot, thread, new ThreadEnded(error.message));
      });
      thread.on('exit', () => stopThread(slot, thread, new ThreadEnded('the script sandbox stopped')));
    });
    // Held only while it has work (see pump); the listeners above ref it, and a thread unref'd
    // before them kept the process from exiting (the int tests hung at the end).
    thread.ref();
    return slot.ready;
  }

  /** The slot's run is over: its timer and its team's count go. */
  function finish(slot: Slot) {
    const current = slot.current;
    if (!current) return;
    clearTimeout(current.timer);
    slot.current = null;
    const team = current.pending.team;
    if (team !== null) {
      const left = (runningByTeam.get(team) ?? 1) - 1;
      if (left > 0) runningByTeam.set(team, left);
      else runningByTeam.delete(team);
    }
  }

  /** Ends a thread and fails the run it had; the next run on its slot starts a new one. */
  function stopThread(slot: Slot, thread: Worker, error: Error) {
    if (slot.worker !== thread) return;
    slot.worker = null;
    slot.ready = null;
    void thread.terminate();
    const current = slot.current;
    if (current) {
      finish(slot);
      current.pending.reject(error);
    }
    pump();
  }

  /** The waiting run to start next: its team has the fewest running and is below its share. */
  function takeNext(): Pending | undefined {
    let best = -1;
    let fewest = Number.POSITIVE_INFINITY;
    for (let i = 0; i < queue.length && fewest > 0; i++) {
      const team = queue[i]?.team ?? null;
      const running = team === null ? 0 : (runningByTeam.get(team) ?? 0);
      if (team !== null && running >= pool.perTeam) continue;
      if (running < fewest) {
        best = i;
        fewest = running;
      }
    }
    return best < 0 ? undefined : queue.splice(best, 1)[0];
  }

  function pump() {
    if (closed) return;
    for (const slot of slots) {
      if (slot.current) continue;
      const pending = takeNext();
      if (!pending) break;
      dispatch(slot, pending);
    }
    // Every started thread busy: one more is started now, so that the next team's run does not
    // wait for a thread's start (a second or more on a loaded machine) behind a looping script.
    if (slots.every((slot) => slot.current || !slot.worker)) {
      const spare = slots.find((slot) => !slot.worker && !slot.current);
      if (spare) start(spare).catch(() => {});
    }
    // An idle thread does not keep the process alive; one with work does, until it answers.
    for (const slot of slots) if (!slot.current) slot.worker?.unref();
  }

  function dispatch(slot: Slot, pending: Pending) {
    slot.current = { pending };
    if (pending.team !== null) runningByTeam.set(pending.team, (runningByTeam.get(pending.team) ?? 0) + 1);
    slot.worker?.ref();
    void (async () => {
      try {
        if (!slot.worker || !slot.ready) await start(slot);
        else await slot.ready;
      } catch (error) {
        if (slot.current?.pending === pending) finish(slot);
        pending.reject(error as Error);
        return pump();
      }
      const thread = slot.worker;
      const current = slot.current;
      if (!thread || current?.pending !== pending) {
        if (current?.pending === pending) finish(slot);
        pending.reject(new ThreadEnded('the script sandbox stopped'));
        return pump();
      }
      current.timer = setTimeout(
        () =>
          stopThread(
            slot,
            thread,
            new ThreadEnded(`time limit of ${pending.request.limits.timeMs} ms exceeded`),
          ),
        pending.request.limits.timeMs + graceMs,
      );
      thread.postMessage(pending.request);
    })();
  }

  function send(request: ThreadRequest, team: number | null): Promise<ThreadReply> {
    if (closed) return Promise.reject(new Error('the script sandbox is closed'));
    return new Promise((resolve, reject) => {
      queue.push({ request, team, resolve, reject });
      pump();
    });
  }

  return {
    async run(scripts, input, owner) {
      try {
        const reply = await send(
          { id: nextId++, kind: 'run', scripts, input, limits },
          owner?.teamId ?? null,
        );
        if (reply.kind !== 'run') throw new Error('unexpected sandbox reply');
        return reply.result;
      } catch (error) {
        // The thread was ended (hard time limit) or died: the script's failure, not the server's.
        const failure = {
          position: scripts.map((s) => s.name).join(', '),
          message: (error as Error).message,
        };
        return error instanceof ThreadEnded
          ? { ok: false, error: failure, hardStop: true }
          : { ok: false, error: failure };
      }
    },
    async check(script) {
      try {
        // Compiling runs no script code: a busy machine must not make a good script fail its check.
        const checkLimits = { ...limits, timeMs: Math.max(limits.timeMs, checkMs) };
        const reply = await send({ id: nextId++, kind: 'check', script, limits: checkLimits }, null);
        if (reply.kind !== 'check') throw new Error('unexpected sandbox reply');
        return reply.error;
      } catch (error) {
        return { position: script.name, message: (error as Error).message };
      }
    },
    async close() {
      closed = true;
      for (const pending of queue.splice(0)) pending.reject(new Error('the script sandbox is closed'));
      await Promise.all(
        slots.map(async (slot) => {
          const worker = slot.worker;
          slot.worker = null;
          if (worker) await worker.terminate();
        }),
      );
    },
  };
}

let shared: ScriptSandbox | undefined;
let sharedKey = '';

/** One sandbox pool per process, for the limits of its config. */
export function scriptSandbox(config: {
  SCRIPT_TIME_LIMIT_MS: number;
  SCRIPT_MEMORY_LIMIT_MB: number;
  SCRIPT_THREADS: number;
  SCRIPT_THREADS_PER_TEAM: number;
}) {
  const key = `${config.SCRIPT_TIME_LIMIT_MS}/${config.SCRIPT_MEMORY_LIMIT_MB}/${config.SCRIPT_THREADS}/${config.SCRIPT_THREADS_PER_TEAM}`;
  if (!shared || sharedKey !== key) {
    void shared?.close();
    shared = createScriptSandbox(
      { timeMs: config.SCRIPT_TIME_LIMIT_MS, memoryBytes: config.SCRIPT_MEMORY_LIMIT_MB * 1024 * 1024 },
      { threads: config.SCRIPT_THREADS, perTeam: config.SCRIPT_THREADS_PER_TEAM },
    );
    sharedKey = key;
  }
  return shared;
}
