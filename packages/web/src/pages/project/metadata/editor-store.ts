// The edits of one project's metadata tab that the server does not hold yet: texts typed but not
// saved (drafts), the save state of each field, and items or languages added but still empty.
// Lives outside React so a pending save survives switching category tabs, and so leaving the page
// can flush it (spec §4 'Metadata saving').
import { limits } from '@photorelay/contract/limits';
import { type SaveValueInput, slotKey, type ValueSlot } from '../../../api/metadata.ts';
import { KeyedAutosave, type SaveState, type TimerApi } from './autosave.ts';
import { slotCovers } from './metadata-model.ts';

export type FieldStatus = { state: SaveState | 'invalid'; error?: unknown };
export type SaveSummary = 'saved' | 'pending' | 'saving' | 'error';
export type Saver = (input: SaveValueInput, options: { urgent: boolean }) => Promise<unknown>;

const noIndexes: readonly number[] = [];
const noLanguages: readonly string[] = [];

export class MetadataEditorStore {
  readonly #drafts = new Map<string, string>();
  readonly #statuses = new Map<string, FieldStatus>();
  readonly #addedItems = new Map<string, readonly number[]>();
  readonly #addedLanguages = new Map<string, readonly string[]>();
  readonly #listeners = new Set<() => void>();
  readonly #autosave: KeyedAutosave<SaveValueInput>;
  #saver: Saver;

  constructor(saver: Saver, options: { delayMs?: number; timers?: TimerApi } = {}) {
    this.#saver = saver;
    this.#autosave = new KeyedAutosave<SaveValueInput>({
      delayMs: options.delayMs ?? limits.metadataAutosaveMs,
      timers: options.timers,
      save: async (key, input, { urgent }) => {
        await this.#saver(input, { urgent });
        // The server now holds the text (the cache has it); a newer edit keeps its draft.
        if (!this.#autosave.isPending(key) && this.#drafts.get(key) === input.value) this.#drafts.delete(key);
      },
      onState: (key, state, error) => this.#setStatus(key, { state, error }),
    });
  }

  /** The save function changes with the React tree (it comes from a mutation hook). */
  setSaver(saver: Saver): void {
    this.#saver = saver;
  }

  subscribe = (listener: () => void): (() => void) => {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  };

  #notify(): void {
    for (const listener of this.#listeners) listener();
  }

  #setStatus(key: string, status: FieldStatus | undefined): void {
    if (status) this.#statuses.set(key, status);
    else this.#statuses.delete(key);
    this.#notify();
  }

  // ---- fields ----

  /** The text typed into `key` that the server does not hold yet. */
  draft(key: string): string | undefined {
    return this.#drafts.get(key);
  }

  status(key: string): FieldStatus | undefined {
    return this.#statuses.get(key);
  }

  /**
   * A change of one input: saved after the autosave delay when `valid` (an empty text deletes the
   * value); an invalid text stays a draft until it is corrected.
   */
  edit(slot: ValueSlot, text: string, valid: boolean): void {
    const key = slotKey(slot);
    this.#drafts.set(key, text);
    if (valid) {
      this.#autosave.schedule(key, { slot, value: text });
    } else {
      this.#autosave.cancel(key);
      this.#statuses.set(key, { state: 'invalid' });
    }
    this.#notify();
  }

  /** Whether unsaved edits exist (pending, running, or invalid). */
  get dirty(): boolean {
    return this.#autosave.pendingCount > 0 || this.#autosave.runningCount > 0 || this.#hasState('invalid');
  }

  #hasState(state: FieldStatus['state']): boolean {
    for (const status of this.#statuses.values()) if (status.state === state) return true;
    return false;
  }

  /** One word for the save indicator of the tab. */
  summary = (): SaveSummary => {
    if (this.#autosave.runningCount > 0) return 'saving';
    if (this.#autosave.pendingCount > 0) return 'pending';
    if (this.#hasState('error') || this.#hasState('invalid')) return 'error';
    return 'saved';
  };

  /** Saves every pending edit now (leaving the page). `urgent` while the document unloads. */
  flush(options: { urgent?: boolean } = {}): Promise<void> {
    return this.#autosave.flush(options);
  }

  // ---- items and languages added in the page, still without a value ----

  addedItems(container: string): readonly number[] {
    return this.#addedItems.get(container) ?? noIndexes;
  }

  addItem(container: string, index: number): void {
    const list = this.addedItems(container);
    if (!list.includes(index)) this.#addedItems.set(container, [...list, index]);
    this.#notify();
  }

  addedLanguages(propertyId: string): readonly string[] {
    return this.#addedLanguages.get(propertyId) ?? noLanguages;
  }

  addLanguage(propertyId: string, lang: string): void {
    const list = this.addedLanguages(propertyId);
    if (!list.includes(lang)) this.#addedLanguages.set(propertyId, [...list, lang]);
    this.#notify();
  }

  /**
   * Forgets what the page holds for the values `slot` covers (an item, a language, a whole
   * property): their pending saves, drafts and states. `container`/`index` or `language` name
   * the locally added entry to drop as well.
   */
  discard(
    slot: ValueSlot,
    added?: { container: string; index: number } | { propertyId: string; lang: string },
  ): void {
    const covered = (key: string) => slotCovers(slot, key);
    this.#autosave.cancelWhere(covered);
    for (const key of [...this.#drafts.keys()]) if (covered(key)) this.#drafts.delete(key);
    for (const key of [...this.#statuses.keys()]) if (covered(key)) this.#statuses.delete(key);
    if (added && 'container' in added) {
      const list = this.addedItems(added.container).filter((index) => index !== added.index);
      this.#addedItems.set(added.container, list);
    } else if (added) {
      const list = this.addedLanguages(added.propertyId).filter((lang) => lang !== added.lang);
      this.#addedLanguages.set(added.propertyId, list);
    }
    this.#notify();
  }

  /**
   * Forgets what is not saved and waits for the saves already on the way, so that a following
   * clear or import reaches the server last.
   */
  async settle(): Promise<void> {
    this.discardAll();
    await this.#autosave.flush();
  }

  /** Forgets everything not saved yet (clear all, XMP upload): the server's state wins. */
  discardAll(): void {
    this.#autosave.cancelWhere(() => true);
    this.#drafts.clear();
    this.#statuses.clear();
    this.#addedItems.clear();
    this.#addedLanguages.clear();
    this.#notify();
  }
}

/** Container key of the items of an array nested in a structure item. */
export const nestedContainer = (containerIds: string, itemPosition: number) =>
  `${containerIds}@${itemPosition}`;
