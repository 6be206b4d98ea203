// The script API as globals of a QuickJS context: host functions (no API source is compiled in
// the context) that read the script's arguments as text and call the run's ScriptState (api.ts).
// A context is bound once, before any script ran in it, and used for one script: the run's data
// (file, project, destinations) is set on it just before the script starts.
import type { QuickJSContext, QuickJSHandle, VmCallResult } from 'quickjs-emscripten';
import { ApiError, apiLimits, checkedText, type ScriptState } from './api.ts';

/** An exception of the script's own code (a toString that threw, the time limit): passed on as is. */
class Thrown {
  constructor(readonly handle: QuickJSHandle) {}
}

export interface BoundContext {
  vm: QuickJSContext;
  /** The state the API of this context works on; set before the script runs. */
  slot: { state: ScriptState | null };
  /** Defines file, project and destinations for the state in the slot. */
  start(state: ScriptState): void;
  dispose(): void;
}

type Impl = (state: ScriptState, args: QuickJSHandle[]) => QuickJSHandle | undefined;

/** Like Lifetime.consume, but disposes the handle also when `use` throws. */
function scoped<T>(handle: QuickJSHandle, use: (h: QuickJSHandle) => T): T {
  try {
    return use(handle);
  } finally {
    handle.dispose();
  }
}

export function bindApi(vm: QuickJSContext): BoundContext {
  const slot: { state: ScriptState | null } = { state: null };
  // Taken before any script runs: a script that replaces String or JSON cannot change what these do.
  const member = (global: string, key: string) =>
    vm.getProp(vm.global, global).consume((g) => vm.getProp(g, key));
  const kept = {
    string: vm.getProp(vm.global, 'String'),
    stringify: member('JSON', 'stringify'),
    isArray: member('Array', 'isArray'),
    freeze: member('Object', 'freeze'),
    seal: member('Object', 'seal'),
    // Reading an item through a call: a getter that throws comes back as the call's error.
    get: member('Reflect', 'get'),
  };

  const call = (fn: QuickJSHandle, ...args: QuickJSHandle[]): QuickJSHandle => {
    const result: VmCallResult<QuickJSHandle> = vm.callFunction(fn, vm.undefined, ...args);
    if (result.error) throw new Thrown(result.error);
    return result.value;
  };
  const stringOf = (h: QuickJSHandle, type = vm.typeof(h)): string => {
    if (type === 'string') return vm.getString(h);
    if (type === 'undefined') return 'undefined';
    if (type === 'number') return String(vm.getNumber(h));
    return scoped(call(kept.string, h), vm.getString);
  };
  /** What the meta writers store: '' for undefined and null, String(value) otherwise. */
  const text = (h: QuickJSHandle | undefined): string => {
    if (!h) return '';
    const type = vm.typeof(h);
    if (type === 'undefined' || (type === 'object' && vm.eq(h, vm.null))) return '';
    return checkedText(stringOf(h, type));
  };
  const truthy = (h: QuickJSHandle) => {
    const type = vm.typeof(h);
    if (type === 'undefined') return false;
    if (type === 'object') return !vm.eq(h, vm.null);
    if (type === 'number' || type === 'boolean' || type === 'string') return Boolean(vm.dump(h));
    return true;
  };
  const name = (h: QuickJSHandle | undefined): string => {
    if (!h || vm.typeof(h) !== 'string') throw new ApiError('meta: a property name is needed');
    return vm.getString(h);
  };
  const isArray = (h: QuickJSHandle) =>
    call(kept.isArray, h).consume((r) => vm.typeof(r) === 'boolean' && vm.dump(r) === true);
  const listOf = (h: QuickJSHandle): string[] => {
    const length = vm.getLength(h) ?? 0;
    if (length > apiLimits.items) throw new ApiError(`meta: more than ${apiLimits.items} items`);
    // scoped, not consume: a handle left alive when a getter or toString throws aborts QuickJS
    // when the runtime is freed.
    return Array.from({ length }, (_, i) =>
      scoped(
        scoped(vm.newNumber(i), (index) => call(kept.get, h, index)),
        text,
      ),
    );
  };
  const toHandle = (value: string | number | string[] | undefined): QuickJSHandle | undefined => {
    if (value === undefined) return undefined;
    if (typeof value === 'number') return vm.newNumber(value);
    if (typeof value === 'string') return vm.newString(value);
    const array = vm.newArray();
    for (const [i, v] of value.entries()) vm.newString(v).consume((s) => vm.setProp(array, i, s));
    return array;
  };
  const logText = (h: QuickJSHandle): string => {
    if (vm.typeof(h) === 'string') return vm.getString(h);
    try {
      const json = call(kept.stringify, h);
      return json.consume((j) => (vm.typeof(j) === 'string' ? vm.getString(j) : ''));
    } catch (error) {
      if (!(error instanceof Thrown)) throw error;
      error.handle.dispose();
      return stringOf(h);
    }
  };

  /** A host function's errors as the script sees them: its own exceptions, or an Error with the API's message. */
  const guarded =
    (impl: Impl) =>
    (...args: QuickJSHandle[]): QuickJSHandle | VmCallResult<QuickJSHandle> | undefined => {
      const state = slot.state;
      if (!state) return { error: vm.newError('the script API is not available') };
      try {
        return impl(state, args);
      } catch (error) {
        if (error instanceof Thrown) return { error: error.handle };
        if (error instanceof ApiError) return { error: vm.newError(error.message) };
        throw error;
      }
    };
  const fn = (fnName: string, impl: Impl) => vm.newFunction(fnName, guarded(impl));
  const frozen = (object: QuickJSHandle) => {
    call(kept.freeze, object).dispose();
    return object;
  };
  const defineGlobal = (key: string, value: QuickJSHandle) => {
    vm.defineProp(vm.global, key, { value, enumerable: true });
    value.dispose();
  };
  const object = (members: Record<string, Impl>) => {
    const o = vm.newObject();
    for (const [key, impl] of Object.entries(members)) fn(key, impl).consume((f) => vm.setProp(o, key, f));
    return frozen(o);
  };

  defineGlobal(
    'meta',
    object({
      get: (s, [n]) => toHandle(s.get(name(n))),
      set: (s, [n, v]) => {
        const key = name(n);
        s.set(key, v && vm.typeof(v) === 'object' && isArray(v) ? listOf(v) : text(v));
        return undefined;
      },
      append: (s, [n, v]) => void s.append(name(n), text(v)),
      prepend: (s, [n, v]) => void s.prepend(name(n), text(v)),
      add: (s, [n, v]) => void s.add(name(n), text(v)),
      remove: (s, args) => void s.remove(name(args[0]), args.length < 2 ? undefined : text(args[1])),
      lang: (s, args) => {
        const lang = args[1] && truthy(args[1]) ? text(args[1]) : '';
        return toHandle(s.lang(name(args[0]), lang, args.length < 3 ? undefined : text(args[2])));
      },
    }),
  );
  defineGlobal('exif', object({ get: (s, [tag]) => toHandle(s.exif(tag ? stringOf(tag) : 'undefined')) }));
  // file, with its name's getter and setter: made here (while the thread waits), its data at start.
  const fileObject = vm.newObject();
  vm.defineProp(fileObject, 'name', {
    enumerable: true,
    // The getter cannot fail (its type wants a value); the setter checks the name.
    get: () => vm.newString(slot.state?.fileName ?? ''),
    set: guarded((s, [value]) => void s.rename(value ? stringOf(value) : 'undefined')),
  });
  for (const [key, impl] of Object.entries<Impl>({
    skip: (s, [n]) => void s.skip(n ? stringOf(n) : 'undefined'),
    reject: (s, [reason]) => {
      s.reject(reason && vm.typeof(reason) !== 'undefined' ? stringOf(reason) : 'rejected by script');
      // Ends the script: the host sees the reason in the state, whatever the script does with this.
      throw new Thrown(vm.newObject());
    },
    log: (s, args) => void s.log(args.map(logText).join(' ')),
  }))
    defineGlobal(key, fn(key, impl));

  return {
    vm,
    slot,
    start(state) {
      try {
        define(state);
      } catch (error) {
        // Outside a script call (the time limit ran out before it started): a plain error for the run.
        if (!(error instanceof Thrown)) throw error;
        const message = error.handle.consume((h) => vm.dump(h) as { message?: unknown } | undefined)?.message;
        throw new Error(typeof message === 'string' ? message : 'the script could not start');
      }
    },
    dispose() {
      slot.state = null;
      for (const handle of Object.values(kept)) handle.dispose();
      // Still ours when the context was never started (a spare dropped with its runtime).
      if (fileObject.alive) fileObject.dispose();
      vm.dispose();
    },
  };

  function define(state: ScriptState) {
    slot.state = state;
    const { file, project, destinations } = state.input;
    const values: Record<string, QuickJSHandle> = {
      folder: vm.newString(file.folder),
      size: vm.newNumber(file.size),
      type: vm.newString(file.type),
    };
    for (const [key, value] of Object.entries(values)) {
      vm.defineProp(fileObject, key, { value, enumerable: true });
      value.dispose();
    }
    call(kept.seal, fileObject).dispose();
    defineGlobal('file', fileObject);
    const projectObject = vm.newObject();
    vm.newString(project.name).consume((n) => vm.setProp(projectObject, 'name', n));
    defineGlobal('project', frozen(projectObject));
    defineGlobal('destinations', frozen(toHandle(destinations) as QuickJSHandle));
  }
}
