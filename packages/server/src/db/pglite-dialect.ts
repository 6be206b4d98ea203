import {
  type CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type QueryResult,
} from 'kysely';
import type { EmbeddedDatabase } from './embedded-database.ts';

/**
 * Kysely dialect for the embedded PGlite process. PGlite is one session, which runs queries one
 * at a time in arrival order (pglite-host.ts). Queries outside a transaction are sent at once,
 * without waiting for the answer to the previous one: the database goes from one to the next
 * while the answers travel back, instead of idling for a round trip through both processes'
 * event loops each time (three quarters of the time under load, issue 15). A transaction has
 * the session to itself from `begin` to `commit`/`rollback`: other queries wait to be sent.
 */
export class PGliteDialect implements Dialect {
  constructor(private readonly pglite: EmbeddedDatabase) {}
  createAdapter() {
    return new PostgresAdapter();
  }
  createDriver(): Driver {
    return new PGliteDriver(this.pglite);
  }
  createIntrospector(db: Kysely<unknown>) {
    return new PostgresIntrospector(db);
  }
  createQueryCompiler() {
    return new PostgresQueryCompiler();
  }
}

const statement = (sql: string) => ({ sql, parameters: [] }) as unknown as CompiledQuery;

class PGliteDriver implements Driver {
  /** The connection whose transaction has the session, and when that transaction ends. */
  private holder: PGliteConnection | null = null;
  private held: Promise<void> = Promise.resolve();
  /** The end of the last transaction begun or waiting to begin (they take turns). */
  private transactions: Promise<void> = Promise.resolve();

  constructor(private readonly pglite: EmbeddedDatabase) {}

  async init() {}

  async acquireConnection(): Promise<DatabaseConnection> {
    return new PGliteConnection(this.pglite, this);
  }

  /** Resolves when `conn` may send: no transaction holds the session, or it is conn's own. */
  async turn(conn: PGliteConnection): Promise<void> {
    while (this.holder !== null && this.holder !== conn) await this.held;
  }

  async beginTransaction(conn: DatabaseConnection) {
    const own = conn as PGliteConnection;
    let end!: () => void;
    const previous = this.transactions;
    const ended = new Promise<void>((resolve) => {
      end = resolve;
    });
    this.transactions = ended;
    await previous;
    // Queries sent before are ahead of `begin` in the session's queue; later ones wait for the end.
    this.holder = own;
    this.held = ended;
    own.endTransaction = () => {
      own.endTransaction = undefined;
      this.holder = null;
      end();
    };
    try {
      await own.executeQuery(statement('begin'));
    } catch (error) {
      own.endTransaction();
      throw error;
    }
  }
  async commitTransaction(conn: DatabaseConnection) {
    await this.finish(conn as PGliteConnection, 'commit');
  }
  async rollbackTransaction(conn: DatabaseConnection) {
    await this.finish(conn as PGliteConnection, 'rollback');
  }
  private async finish(conn: PGliteConnection, sql: 'commit' | 'rollback') {
    try {
      await conn.executeQuery(statement(sql));
    } finally {
      conn.endTransaction?.();
    }
  }
  async releaseConnection() {}
  async destroy() {
    await this.pglite.close();
  }
}

class PGliteConnection implements DatabaseConnection {
  endTransaction?: () => void;
  constructor(
    private readonly pglite: EmbeddedDatabase,
    private readonly driver: PGliteDriver,
  ) {}

  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    await this.driver.turn(this);
    const result = await this.pglite.query(compiled.sql, compiled.parameters);
    const affected = result.affectedRows;
    return {
      rows: result.rows as R[],
      numAffectedRows: affected === undefined ? undefined : BigInt(affected),
    };
  }

  // biome-ignore lint/correctness/useYield: streaming is not offered by PGlite
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('PGlite does not support streaming queries');
  }
}
