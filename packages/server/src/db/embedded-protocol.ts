// Messages between the server and its embedded database process (pglite-host.ts).

export type HostRequest =
  | { kind: 'query'; id: number; sql: string; params: unknown[] }
  /** A consistent copy of the database's files into the new folder `dir`. */
  | { kind: 'dump'; id: number; dir: string }
  | { kind: 'close' };

export type HostReply =
  | { kind: 'ready' }
  | { kind: 'fatal'; message: string }
  | { kind: 'result'; id: number; rows: unknown[]; affectedRows?: number }
  | { kind: 'error'; id: number; message: string; fields: Record<string, unknown> };
