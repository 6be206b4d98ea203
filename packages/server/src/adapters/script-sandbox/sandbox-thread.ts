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
import { prelude } from './prelude.ts';
import type {
  Catalog,
  Limits,
  RunResult,
  ScriptFailure,
  ScriptInput,
  ScriptOutput,
  ScriptSource,
  ThreadReply,
  ThreadRequest,
} from './protocol.ts';

const catalogJson = JSON.stringify(workerData as Catalog);
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

/** 'line:column' of the first stack frame in the script itself (not in the API's prelude). */
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

function callString(vm: QuickJSContext, code: string): string {
  const handle = vm.unwrapResult(vm.evalCode(code, '<result>'));
  try {
    if (vm.typeof(handle) !== 'string') throw new Error('the script API was tampered with');
    return vm.getString(handle);
  } finally {
    handle.dispose();
  }
}

/** A fresh runtime and context with the API compiled but not yet called: no script ran in it. */
interface Prepared {
  rt: QuickJSRuntime;
  vm: QuickJSContext;
  setup: QuickJSHandle;
  memoryBytes: number;
}

function prepare(memoryBytes: number): Prepared {
  const rt = qjs.newRuntime({ memoryLimitBytes: memoryBytes, maxStackSizeBytes: maxStackBytes });
  const vm = rt.newContext();
  const setup = vm.unwrapResult(vm.evalCode(prelude, '<prelude>'));
  return { rt, vm, setup, memoryBytes };
}

function release(p: Prepared) {
  p.setup.dispose();
  p.vm.dispose();
  p.rt.dispose();
}

// Compiling the API costs more than most scripts (bench/README.md): the next context is made
// while the thread waits for work, so a run only calls into it.
let spare: Prepared | null = null;
let lastMemoryBytes = 32 * 1024 * 1024;

function take(limits: Limits, deadline: number): Prepared {
  let p = spare;
  spare = null;
  if (p && p.memoryBytes !== limits.memoryBytes) {
    release(p);
    p = null;
  }
  p ??= prepare(limits.memoryBytes);
  lastMemoryBytes = limits.memoryBytes;
  p.rt.setInterruptHandler(shouldInterruptAfterDeadline(deadline));
  return p;
}

/** One script in a fresh context, on the state the previous one left. */
function runOne(
  p: Prepared,
  script: ScriptSource,
  input: ScriptInput,
  limits: Limits,
): { output: ScriptOutput } | { error: ScriptFailure } {
  const { vm, setup } = p;
  const args = [vm.newString(JSON.stringify(input)), vm.newString(catalogJson)];
  const called = vm.callFunction(setup, vm.undefined, ...args);
  for (const h of args) h.dispose();
  vm.unwrapResult(called).dispose();

  const result = vm.evalCode(script.source, script.name, { type: 'global', strict: false });
  if (result.error) {
    const rejected = callString(vm, 'String(__photorelayRejected())') === 'true';
    if (!rejected) {
      const error = failure(vm, result.error, script, limits);
      result.error.dispose();
      return { error };
    }
    result.error.dispose();
  } else result.value.dispose();
  const text = callString(vm, '__photorelayResult()');
  if (text.length > 4 * 1024 * 1024) return { error: { position: script.name, message: 'result too large' } };
  return { output: JSON.parse(text) as ScriptOutput };
}

function run(scripts: ScriptSource[], input: ScriptInput, limits: Limits): RunResult {
  const deadline = Date.now() + limits.timeMs;
  try {
    let state = input;
    let output: ScriptOutput = {
      file: { name: input.file.name },
      meta: input.meta,
      metaChanged: false,
      skipped: [],
      rejected: null,
      log: [],
    };
    for (const script of scripts) {
      const p = take(limits, deadline);
      let one: ReturnType<typeof runOne>;
      try {
        one = runOne(p, script, state, limits);
      } finally {
        release(p);
      }
      if ('error' in one) return { ok: false, error: one.error };
      const next = one.output;
      output = {
        ...next,
        metaChanged: output.metaChanged || next.metaChanged,
        skipped: [...new Set([...output.skipped, ...next.skipped])],
        log: [...output.log, ...next.log].slice(0, 500),
      };
      if (output.rejected !== null) break;
      state = { ...state, file: { ...state.file, name: next.file.name }, meta: next.meta };
    }
    return { ok: true, output };
  } catch (error) {
    // A limit hit inside the API or while reading the result still names the script's limits.
    return { ok: false, error: { position: '', message: friendly((error as Error).message, limits) } };
  }
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
    spare ??= prepare(lastMemoryBytes);
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
