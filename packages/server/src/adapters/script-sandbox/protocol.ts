// What the host and the sandbox thread exchange. Plain data only: no host object ever enters
// the QuickJS context, the script's API is built inside it from this JSON.

export interface ScriptSource {
  /** Shown in error positions: 'folder News.script', 'project.script'. */
  name: string;
  source: string;
}

export interface MetaValue {
  /** 'description', or a structure field 'locationCreated,city'. */
  p: string;
  v: string;
  pos?: number;
  lang?: string;
}

export interface ScriptInput {
  file: { name: string; folder: string; size: number; type: string };
  meta: MetaValue[];
  exif: Record<string, string | number>;
  project: { name: string };
  destinations: string[];
}

export interface ScriptOutput {
  file: { name: string };
  /**
   * The values of the properties in `written`, not of the others: the host needs only what may
   * have changed, and a picture can carry hundreds of values.
   */
  meta: MetaValue[];
  /** Top-level ids of the properties a meta writer touched (in the order first touched); none: the file is not stamped again. */
  written: string[];
  skipped: string[];
  rejected: string | null;
  log: string[];
}

export interface ScriptFailure {
  /** Script name and 'line:column' where known. */
  position: string;
  message: string;
}

export type RunResult = { ok: true; output: ScriptOutput } | { ok: false; error: ScriptFailure };

/** What a property is, for the API's get/set: top-level catalog ids and their aliases. */
export interface Catalog {
  kinds: Record<string, 'simple' | 'alt' | 'bag' | 'seq' | 'structure' | 'structs'>;
  aliases: Record<string, string>;
}

export interface Limits {
  timeMs: number;
  memoryBytes: number;
}

export type ThreadRequest =
  | { id: number; kind: 'run'; scripts: ScriptSource[]; input: ScriptInput; limits: Limits }
  | { id: number; kind: 'check'; script: ScriptSource; limits: Limits };

export type ThreadReply =
  | { id: number; kind: 'run'; result: RunResult }
  | { id: number; kind: 'check'; error: ScriptFailure | null };
