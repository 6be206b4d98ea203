import { type PGlite, parse, protocol } from '@electric-sql/pglite';

// Named prepared statements for the embedded database. `PGlite.query` parses, analyses and plans
// every statement again (an unnamed statement) in six protocol round trips into WebAssembly; the
// same statement prepared once under a name is bound and executed in one. On the calendar month
// (bench/calendar) that is 10.5 -> 8.0 ms of PGlite's CPU, a small lookup 0.27 -> 0.12 ms.
// PostgreSQL plans a named statement per execution for its first five runs, then keeps a generic
// plan if that costs no more (plan_cache_mode auto), and re-plans it itself after DDL.

const { serialize } = protocol;

/** Statements kept per process (least recently used go first); longer texts are not kept. */
const capacity = 200;
const maxTextLength = 8_000;
/** A statement that is gone, or a cached plan whose result type changed (after DDL). */
const isStale = (error: { code?: unknown; message?: unknown }) =>
  error.code === '26000' ||
  (error.code === '0A000' && String(error.message).startsWith('cached plan must not change result type'));

interface Prepared {
  name: string;
  paramTypes: number[];
}

export interface StatementResult {
  rows: unknown[];
  affectedRows?: number;
}

const concat = (parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
};

/** `query(sql, params)` with the same answers as `pglite.query`, through named statements. */
export function preparedStatements(pglite: PGlite) {
  const statements = new Map<string, Prepared>();
  /** Names dropped from the cache, closed with the next statement prepared. */
  const dropped: string[] = [];
  let counter = 0;

  async function prepare(text: string): Promise<Prepared> {
    const name = `pr_${++counter}`;
    // The least recently used one is closed in the same round trip.
    const [oldest] = statements;
    if (oldest && statements.size >= capacity) {
      statements.delete(oldest[0]);
      dropped.push(oldest[1].name);
    }
    const messages = dropped.splice(0).map((old) => serialize.close({ type: 'S', name: old }));
    messages.push(serialize.parse({ name, text }), serialize.describe({ type: 'S', name }), serialize.sync());
    const result = await pglite.execProtocol(concat(messages));
    const prepared = { name, paramTypes: parse.parseDescribeStatementResults(result.messages) };
    statements.set(text, prepared);
    return prepared;
  }

  async function run(prepared: Prepared, params: readonly unknown[]): Promise<StatementResult> {
    // Serialised by the parameter's type as `pglite.query` does.
    const values = params.map((value, i) => {
      if (value === null || value === undefined) return null;
      const serializer = pglite.serializers[prepared.paramTypes[i] ?? 0];
      return serializer ? serializer(value) : String(value);
    });
    const result = await pglite.execProtocol(
      concat([
        serialize.bind({ statement: prepared.name, values }),
        serialize.describe({ type: 'P' }),
        serialize.execute({}),
        serialize.sync(),
      ]),
    );
    const [first] = parse.parseResults(result.messages, pglite.parsers);
    return { rows: first?.rows ?? [], affectedRows: first?.affectedRows };
  }

  return async function query(text: string, params: readonly unknown[]): Promise<StatementResult> {
    if (text.length > maxTextLength) return pglite.query(text, [...params]);
    const known = statements.get(text);
    if (!known) return run(await prepare(text), params);
    // Most recently used last.
    statements.delete(text);
    statements.set(text, known);
    try {
      return await run(known, params);
    } catch (error) {
      if (!isStale(error as Error & { code?: unknown })) throw error;
      statements.delete(text);
      dropped.push(known.name);
      // Inside a transaction the error has aborted it: the caller sees it and rolls back.
      if (pglite.isInTransaction()) throw error;
      return run(await prepare(text), params);
    }
  };
}
