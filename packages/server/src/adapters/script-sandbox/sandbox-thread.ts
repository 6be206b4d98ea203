// The sandbox's worker thread: runs scripts in QuickJS, one request at a time. A script that
// escapes QuickJS's own limits (a native call that runs long between interrupt checks) blocks
// only this thread, which the host then terminates; the server's event loop never waits on it.
import { createHash } from 'node:crypto';
import { parentPort, workerData } from 'node:worker_threads';
import {
  getQuickJS,
  type QuickJSContext,
  type QuickJSHandle,
  type QuickJSRuntime,
  shouldInterruptAfterDeadline,
} from 'quickjs-emscripten';
import { ScriptState } from './api.ts';
import { type BoundContext, bindApi } from './bind.ts';
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

const catalog = workerData as Catalog;
// QuickJS checks its stack against this; well below what V8 gives the wasm code (512 KB overflowed it).
const maxStackBytes = 256 * 1024;
const qjs = await getQuickJS();

function newRuntime(limits: Limits, deadline: number): QuickJSRuntime {
  return qjs.newRuntime({
    memoryLimitBytes: limits.memoryBytes,
    maxStackSizeBytes: maxStackBytes,
    interruptHandler: shouldInterruptAfterDeadline(deadline),
  });
}

/** A thrown value as text, without trusting it: a getter on it may throw or loop (interrupted). */
function describeThrown(vm: QuickJSContext, error: QuickJSHandle): { message: string; stack: string } {
  const kind = vm.typeof(error);
  if (kind !== 'object') {
    const value =
      kind === 'string' || kind === 'number' || kind === 'boolean' ? String(vm.dump(error)) : kind;
    return { message: `uncaught ${value}`, stack: '' };
  }
  const read = (name: string) => {
    try {
      const handle = vm.getProp(error, name);
      try {
        return vm.typeof(handle) === 'string' ? vm.getString(handle) : '';
      } finally {
        handle.dispose();
      }
    } catch {
      return '';
    }
  };
  const message = read('message');
  return { message: message || 'uncaught exception (not an Error)', stack: read('stack') };
}

function friendly(message: string, limits: Limits): string {
  if (message === 'interrupted') return `time limit of ${limits.timeMs} ms exceeded`;
  if (message === 'out of memory')
    return `memory limit of ${Math.round(limits.memoryBytes / 1048576)} MB exceeded`;
  return message;
}

/** 'line:column' of the first stack frame in the script itself. */
function positionIn(stack: string, scriptName: string): string {
  const at = stack.indexOf(`${scriptName}:`);
  if (at < 0) return '';
  const match = /^(\d+):(\d+)/.exec(stack.slice(at + scriptName.length + 1));
  return match ? `${match[1]}:${match[2]}` : '';
}

function failure(
  vm: QuickJSContext,
  error: QuickJSHandle,
  script: ScriptSource,
  limits: Limits,
): ScriptFailure {
  const thrown = describeThrown(vm, error);
  const position = positionIn(thrown.stack, script.name);
  return {
    position: position ? `${script.name} ${position}` : script.name,
    message: friendly(thrown.message, limits).slice(0, 500),
  };
}

/** The thread's runtime: kept between runs (each script gets a fresh context in it). */
interface Runtime {
  rt: QuickJSRuntime;
  memoryBytes: number;
  runs: number;
}
// A runtime is replaced after a failed run, after a run that left promise jobs behind, and every
// so many runs, so what one script left in it (garbage, jobs) cannot reach far.
const runsPerRuntime = 200;
let runtime: Runtime | null = null;
// The next context, bound while the thread waits for work, so a run only sets its data on it.
let spare: BoundContext | null = null;

function dropRuntime() {
  spare?.dispose();
  spare = null;
  runtime?.rt.dispose();
  runtime = null;
}

function currentRuntime(memoryBytes: number): Runtime {
  if (runtime && (runtime.memoryBytes !== memoryBytes || runtime.runs >= runsPerRuntime)) dropRuntime();
  runtime ??= {
    rt: qjs.newRuntime({ memoryLimitBytes: memoryBytes, maxStackSizeBytes: maxStackBytes }),
    memoryBytes,
    runs: 0,
  };
  return runtime;
}

// Scripts have no binary data and no use for proxies: a context without these is cheaper to make.
// (Without Promise, an async function crashed QuickJS; with it, a run that leaves jobs behind
// ends its runtime, see runOnce.)
const intrinsics = {
  BaseObjects: true,
  Date: true,
  Eval: true,
  StringNormalize: true,
  RegExp: true,
  JSON: true,
  MapSet: true,
  Promise: true,
} as const;

const newContext = (r: Runtime) => bindApi(r.rt.newContext({ intrinsics }));

function freshContext(r: Runtime): BoundContext {
  const ready = spare;
  spare = null;
  return ready ?? newContext(r);
}

/** One script in a fresh context, on the state the previous one left. */
function runOne(r: Runtime, script: ScriptSource, state: ScriptState, limits: Limits): ScriptFailure | null {
  const bound = freshContext(r);
  try {
    bound.start(state);
    const result = bound.vm.evalCode(script.source, script.name, { type: 'global', strict: false });
    if (!result.error) {
      result.value.dispose();
      return null;
    }
    const error = state.rejected === null ? failure(bound.vm, result.error, script, limits) : null;
    result.error.dispose();
    return error;
  } finally {
    bound.dispose();
  }
}

function runOnce(scripts: ScriptSource[], input: ScriptInput, limits: Limits): RunResult {
  const r = currentRuntime(limits.memoryBytes);
  r.runs++;
  r.rt.setInterruptHandler(shouldInterruptAfterDeadline(Date.now() + limits.timeMs));
  const state = new ScriptState(input, catalog);
  let result: RunResult;
  try {
    let error: ScriptFailure | null = null;
    for (const script of scripts) {
      error = runOne(r, script, state, limits);
      if (error || state.rejected !== null) break;
    }
    result = error ? { ok: false, error } : { ok: true, output: state.output() };
  } catch (error) {
    // A limit hit inside the API still names the script's limits.
    result = { ok: false, error: { position: '', message: friendly((error as Error).message, limits) } };
  }
  if (!result.ok || r.rt.hasPendingJob()) dropRuntime();
  return result;
}

function run(scripts: ScriptSource[], input: ScriptInput, limits: Limits): RunResult {
  const reused = runtime !== null && runtime.runs > 0;
  const result = runOnce(scripts, input, limits);
  // What earlier scripts left in the runtime counts against its memory limit until collected:
  // a run that hit the limit in a used runtime is repeated once in a new one.
  if (!result.ok && reused && result.error.message === friendly('out of memory', limits))
    return runOnce(scripts, input, limits);
  return result;
}

// Checked sources by content: a project's script is checked when stored and again on every run.
const checked = new Map<string, ScriptFailure | null>();

function check(script: ScriptSource, limits: Limits): ScriptFailure | null {
  const key = createHash('sha256').update(script.name).update('\0').update(script.source).digest('hex');
  const known = checked.get(key);
  if (known !== undefined) return known;
  const rt = newRuntime(limits, Date.now() + limits.timeMs);
  const vm = rt.newContext();
  try {
    const result = vm.evalCode(script.source, script.name, { type: 'global', compileOnly: true });
    let error: ScriptFailure | null = null;
    if (result.error) {
      error = failure(vm, result.error, script, limits);
      result.error.dispose();
    } else result.value.dispose();
    if (checked.size > 1000) checked.clear();
    checked.set(key, error);
    return error;
  } finally {
    vm.dispose();
    rt.dispose();
  }
}

parentPort?.on('message', (request: ThreadRequest) => {
  let reply: ThreadReply;
  if (request.kind === 'run')
    reply = { id: request.id, kind: 'run', result: run(request.scripts, request.input, request.limits) };
  else reply = { id: request.id, kind: 'check', error: check(request.script, request.limits) };
  parentPort?.postMessage(reply);
  setImmediate(() => {
    if (!runtime || spare) return;
    runtime.rt.removeInterruptHandler();
    spare = newContext(runtime);
  });
});
// The first run compiles most of QuickJS's wasm; done here, it does not count against a script.
run(
  [{ name: 'warm-up', source: "meta.set('caption', file.name); log(exif.get('Make'))" }],
  {
    file: { name: 'a.jpg', folder: '', size: 1, type: 'image/jpeg' },
    meta: [],
    exif: {},
    project: { name: '' },
    destinations: [],
  },
  { timeMs: 10_000, memoryBytes: 32 * 1024 * 1024 },
);
parentPort?.postMessage({ ready: true });
