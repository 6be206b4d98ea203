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
 * Kysely dialect for the embedded PGlite process. PGlite is one connection, so the driver hands
 * it out to one user at a time: a transaction holds it until commit/rollback, other queries wait.
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

class PGliteDriver implements Driver {
  private queue: Promise<void> = Promise.resolve();
  private readonly connection: PGliteConnection;

  constructor(private readonly pglite: EmbeddedDatabase) {
    this.connection = new PGliteConnection(pglite);
  }

  async init() {}

  async acquireConnection(): Promise<DatabaseConnection> {
    let release!: () => void;
    const previous = this.queue;
    this.queue = new Promise<void>((resolve) => {
      release = resolve;
    });
    await previous;
    this.connection.release = release;
    return this.connection;
  }

  async beginTransaction(conn: DatabaseConnection) {
    await conn.executeQuery({ sql: 'begin', parameters: [] } as unknown as CompiledQuery);
  }
  async commitTransaction(conn: DatabaseConnection) {
    await conn.executeQuery({ sql: 'commit', parameters: [] } as unknown as CompiledQuery);
  }
  async rollbackTransaction(conn: DatabaseConnection) {
    await conn.executeQuery({ sql: 'rollback', parameters: [] } as unknown as CompiledQuery);
  }
  async releaseConnection(conn: DatabaseConnection) {
    (conn as PGliteConnection).release?.();
  }
  async destroy() {
    await this.pglite.close();
  }
}

class PGliteConnection implements DatabaseConnection {
  release?: () => void;
  constructor(private readonly pglite: EmbeddedDatabase) {}

  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
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
