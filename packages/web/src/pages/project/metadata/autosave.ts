// Spec §4 'Metadata saving': an edit is saved a fixed time after the last change of its field;
// pending edits are flushed when the page is left. One debounce timer per field key; saves of
// one key run one after the other so an older text never overwrites a newer one.

export type TimerApi = {
  setTimeout: (callback: () => void, ms: number) => unknown;
  clearTimeout: (handle: unknown) => void;
};

const globalTimers: TimerApi = {
  setTimeout: (callback, ms) => globalThis.setTimeout(callback, ms),
  clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export type SaveState = 'pending' | 'saving' | 'saved' | 'error';

export type AutosaveOptions<T> = {
  delayMs: number;
  /**
   * Stores one field. `urgent` is set while the page unloads: the save must be sent at once
   * (e.g. with `keepalive`) and may not be awaited.
   */
  save: (key: string, value: T, options: { urgent: boolean }) => Promise<unknown>;
  onState?: (key: string, state: SaveState, error?: unknown) => void;
  timers?: TimerApi;
};

export class KeyedAutosave<T> {
  readonly #options: AutosaveOptions<T>;
  readonly #timers: TimerApi;
  readonly #pending = new Map<string, { value: T; timer: unknown }>();
  readonly #running = new Map<string, Promise<void>>();

  constructor(options: AutosaveOptions<T>) {
    this.#options = options;
    this.#timers = options.timers ?? globalTimers;
  }

  /** Remembers `value` for `key` and (re)starts its timer. */
  schedule(key: string, value: T): void {
    const previous = this.#pending.get(key);
    if (previous) this.#timers.clearTimeout(previous.timer);
    const timer = this.#timers.setTimeout(() => void this.#start(key, false), this.#options.delayMs);
    this.#pending.set(key, { value, timer });
    this.#options.onState?.(key, 'pending');
  }

  /** Drops the not yet started save of `key` (a save already running finishes). */
  cancel(key: string): boolean {
    const pending = this.#pending.get(key);
    if (!pending) return false;
    this.#timers.clearTimeout(pending.timer);
    this.#pending.delete(key);
    return true;
  }

  /** Drops every pending save whose key matches. */
  cancelWhere(matches: (key: string) => boolean): string[] {
    const dropped = [...this.#pending.keys()].filter(matches);
    for (const key of dropped) this.cancel(key);
    return dropped;
  }

  isPending(key: string): boolean {
    return this.#pending.has(key);
  }

  isBusy(key: string): boolean {
    return this.#pending.has(key) || this.#running.has(key);
  }

  get pendingCount(): number {
    return this.#pending.size;
  }

  get runningCount(): number {
    return this.#running.size;
  }

  /**
   * Starts every pending save now and resolves when all saves (also those already running)
   * have settled. With `urgent`, saves do not wait for a running save of the same key.
   */
  async flush(options: { urgent?: boolean } = {}): Promise<void> {
    const urgent = options.urgent ?? false;
    const started = [...this.#pending.keys()].map((key) => this.#start(key, urgent));
    await Promise.all([...started, ...this.#running.values()]);
  }

  #start(key: string, urgent: boolean): Promise<void> {
    const pending = this.#pending.get(key);
    if (!pending) return this.#running.get(key) ?? Promise.resolve();
    this.#timers.clearTimeout(pending.timer);
    this.#pending.delete(key);
    const before = urgent ? Promise.resolve() : (this.#running.get(key) ?? Promise.resolve());
    const run = before.then(() => this.#save(key, pending.value, urgent));
    this.#running.set(key, run);
    void run.finally(() => {
      if (this.#running.get(key) === run) this.#running.delete(key);
    });
    return run;
  }

  async #save(key: string, value: T, urgent: boolean): Promise<void> {
    this.#options.onState?.(key, 'saving');
    try {
      await this.#options.save(key, value, { urgent });
      // A newer edit may have come in meanwhile; it reports its own state.
      if (!this.#pending.has(key)) this.#options.onState?.(key, 'saved');
    } catch (error) {
      if (!this.#pending.has(key)) this.#options.onState?.(key, 'error', error);
    }
  }
}
