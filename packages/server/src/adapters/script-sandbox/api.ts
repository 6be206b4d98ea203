// The script API's logic (docs/scripts.md): meta.get/set/append/prepend/add/remove/lang on the
// values the template produced, file.name, skip, reject and log. It runs in the sandbox thread,
// outside QuickJS, on plain values: bind.ts hands it only strings and string lists taken from the
// script's arguments, so nothing of the script reaches it but text. Keeping it out of the QuickJS
// context means no API code is compiled per run (that cost more than the scripts themselves).
import type { Catalog, MetaValue, ScriptInput, ScriptOutput } from './protocol.ts';

export const apiLimits = { text: 1024, items: 256, values: 5000, log: 200, logText: 2000 } as const;

/** A misuse of the API: thrown into the script as an Error with this message. */
export class ApiError extends Error {}

const fail = (message: string): never => {
  throw new ApiError(message);
};

interface Resolved {
  id: string;
  kind: Catalog['kinds'][string] | 'field';
  path: string;
  inArray: boolean;
}

const isDefault = (e: MetaValue) => !e.lang || e.lang === 'x-default';
const isList = (r: Resolved) => r.kind === 'bag' || r.kind === 'seq';

function joinAfter(existing: string, addition: string) {
  const base = existing.replace(/\s+$/, '');
  if (base === '') return addition;
  if (addition === '') return existing;
  return /^[\s,;:.\-/|)!?]/.test(addition) ? base + addition : `${base} ${addition}`;
}

function joinBefore(addition: string, existing: string) {
  const base = existing.replace(/^\s+/, '');
  if (base === '') return addition;
  if (addition === '') return existing;
  return /\s$/.test(addition) ? addition + base : `${addition} ${base}`;
}

/**
 * No path, no control characters, no bidirectional controls (issue 25: a right-to-left override
 * makes 'x\u202Egpj.exe' show as 'xexe.jpg'): a delivered file's name is used as is on the destination.
 */
export const validFileName = (n: string) =>
  n !== '.' &&
  n !== '..' &&
  !/\p{Bidi_Control}/u.test(n) &&
  ![...n].some((ch) => ch === '/' || ch === '\\' || ch.charCodeAt(0) < 32);

/** One check of a value's length: the text of every meta writer. */
export function checkedText(value: string): string {
  if (value.length > apiLimits.text) fail(`meta: a value is longer than ${apiLimits.text} characters`);
  return value;
}

// Catalog ids by their lower case, made once per catalog (the thread has one), not per run.
const lowerIdsOf = new WeakMap<Catalog, Map<string, string>>();
function lowerIds(catalog: Catalog): Map<string, string> {
  let ids = lowerIdsOf.get(catalog);
  if (!ids) {
    ids = new Map(Object.keys(catalog.kinds).map((id) => [id.toLowerCase(), id]));
    lowerIdsOf.set(catalog, ids);
  }
  return ids;
}

/** The top-level catalog id of a value's property: 'locationCreated' of 'locationCreated,city'. */
export const topId = (p: string) => {
  const comma = p.indexOf(',');
  return comma < 0 ? p : p.slice(0, comma);
};

/** The state of one run of a project's scripts: each script sees what the previous one left. */
export class ScriptState {
  private values: MetaValue[];
  /** Top-level ids of the properties a meta writer touched: only their values go back to the host. */
  private readonly written = new Set<string>();
  fileName: string;
  readonly skipped: string[] = [];
  rejected: string | null = null;
  readonly logs: string[] = [];
  private readonly lowerIds: Map<string, string>;

  constructor(
    readonly input: ScriptInput,
    private readonly catalog: Catalog,
  ) {
    this.values = input.meta.map((v) => ({ ...v }));
    this.fileName = input.file.name;
    this.lowerIds = lowerIds(catalog);
  }

  private resolve(name: string): Resolved {
    if (name.trim() === '') fail('meta: a property name is needed');
    const parts = name.split(',').map((s) => s.trim());
    const lower = (parts[0] ?? '').toLowerCase();
    const id = Object.hasOwn(this.catalog.aliases, lower)
      ? this.catalog.aliases[lower]
      : this.lowerIds.get(lower);
    if (!id) return fail(`meta: unknown property "${parts[0]}"`);
    const kind = this.catalog.kinds[id] ?? 'simple';
    const field = parts.length > 1;
    if (!field && (kind === 'structure' || kind === 'structs'))
      fail(`meta: ${id} has fields: name one, e.g. "${id},city"`);
    return {
      id,
      kind: field ? 'field' : kind,
      path: [id, ...parts.slice(1)].join(','),
      inArray: kind === 'structs',
    };
  }

  private mine(r: Resolved) {
    return (e: MetaValue) => e.p === r.path && (r.kind !== 'field' || !r.inArray || (e.pos ?? 0) === 0);
  }

  private list(r: Resolved) {
    return this.values.filter(this.mine(r)).sort((a, b) => (a.pos ?? 0) - (b.pos ?? 0));
  }

  private replaceAll(r: Resolved, entries: MetaValue[]) {
    const keep = this.mine(r);
    const next = this.values.filter((e) => !keep(e)).concat(entries);
    if (next.length > apiLimits.values) fail(`meta: more than ${apiLimits.values} values`);
    this.values = next;
    this.written.add(r.id);
  }

  private items(r: Resolved) {
    return this.list(r).map((e) => e.v);
  }

  private setItems(r: Resolved, items: string[]) {
    if (items.length > apiLimits.items) fail(`meta: more than ${apiLimits.items} items`);
    this.replaceAll(
      r,
      items.map((v, i) => ({ p: r.path, v: checkedText(v), pos: i })),
    );
  }

  private getText(r: Resolved) {
    let found = this.list(r);
    if (r.kind === 'alt') found = found.filter(isDefault).concat(found);
    return found[0]?.v ?? '';
  }

  private setText(r: Resolved, value: string) {
    const v = checkedText(value);
    if (r.kind === 'alt') {
      const others = this.list(r).filter((e) => !isDefault(e));
      this.replaceAll(r, [{ p: r.path, v, lang: 'x-default' }, ...others]);
    } else if (r.kind === 'field') {
      const old = this.list(r)[0];
      const entry: MetaValue = { p: r.path, v };
      if (r.inArray) entry.pos = 0;
      if (old?.lang) entry.lang = old.lang;
      this.replaceAll(r, [entry]);
    } else this.replaceAll(r, [{ p: r.path, v }]);
  }

  private needList(r: Resolved, what: string) {
    if (!isList(r)) fail(`meta.${what}: ${r.id} is not a list`);
  }

  /** meta.get: text, or the items of a list. */
  get(name: string): string | string[] {
    const r = this.resolve(name);
    return isList(r) ? this.items(r) : this.getText(r);
  }

  /** meta.set: `value` is a list when the script passed an array. */
  set(name: string, value: string | string[]) {
    const r = this.resolve(name);
    if (isList(r)) this.setItems(r, Array.isArray(value) ? value : [value]);
    else this.setText(r, Array.isArray(value) ? value.join(',') : value);
  }

  append(name: string, value: string) {
    const r = this.resolve(name);
    if (isList(r)) this.setItems(r, [...this.items(r), value]);
    else this.setText(r, joinAfter(this.getText(r), checkedText(value)));
  }

  prepend(name: string, value: string) {
    const r = this.resolve(name);
    if (isList(r)) this.setItems(r, [value, ...this.items(r)]);
    else this.setText(r, joinBefore(checkedText(value), this.getText(r)));
  }

  add(name: string, item: string) {
    const r = this.resolve(name);
    this.needList(r, 'add');
    const now = this.items(r);
    const v = checkedText(item);
    if (r.kind === 'seq' || !now.includes(v)) this.setItems(r, [...now, v]);
  }

  /** meta.remove(name) empties the property; with an item, removes it from the list. */
  remove(name: string, item?: string) {
    const r = this.resolve(name);
    if (item === undefined) return this.replaceAll(r, []);
    this.needList(r, 'remove');
    const v = checkedText(item);
    this.setItems(
      r,
      this.items(r).filter((x) => x !== v),
    );
  }

  /** meta.lang(name, lang) reads one language's text; with a value, writes it. */
  lang(name: string, lang: string, value?: string): string | undefined {
    const r = this.resolve(name);
    if (r.kind !== 'alt') fail(`meta.lang: ${r.id} is not a language alternative`);
    const l = lang || 'x-default';
    const of = (e: MetaValue) => (e.lang ?? 'x-default') === l;
    if (value === undefined) return this.list(r).find(of)?.v ?? '';
    const others = this.list(r).filter((e) => !of(e));
    const entry = { p: r.path, v: checkedText(value), lang: l };
    this.replaceAll(r, l === 'x-default' ? [entry, ...others] : [...others, entry]);
    return undefined;
  }

  exif(tag: string): string | number | undefined {
    return Object.hasOwn(this.input.exif, tag) ? this.input.exif[tag] : undefined;
  }

  rename(name: string) {
    if (name === '' || name.length > 255 || !validFileName(name))
      fail(`file.name: "${name.slice(0, 100)}" is not a valid file name`);
    this.fileName = name;
  }

  skip(name: string) {
    if (!this.input.destinations.includes(name))
      return this.log(`skip: no destination named "${name.slice(0, 100)}"`);
    if (!this.skipped.includes(name)) this.skipped.push(name);
  }

  reject(reason: string) {
    this.rejected = reason.slice(0, 1000);
  }

  log(line: string) {
    if (this.logs.length < apiLimits.log) this.logs.push(line.slice(0, apiLimits.logText));
  }

  output(): ScriptOutput {
    return {
      file: { name: this.fileName },
      meta: this.values.filter((v) => this.written.has(topId(v.p))),
      written: [...this.written],
      skipped: [...this.skipped],
      rejected: this.rejected,
      log: [...this.logs],
    };
  }
}
