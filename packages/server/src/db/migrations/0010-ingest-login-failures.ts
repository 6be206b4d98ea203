import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    -- FTP/SFTP login attempts per (remote address, user name), shared by every ingest process
    -- (ingest/login-throttle.ts). attempts: counted before the password check (in-flight ones
    -- included); failures: confirmed wrong passwords, what blocks a whole address.
    create table ingest_login_failures (
      address text not null,
      username text not null,
      attempts integer not null,
      failures integer not null default 0,
      last_attempt timestamptz not null,
      blocked_until timestamptz,
      primary key (address, username)
    );
    create index ingest_login_failures_last_attempt on ingest_login_failures(last_attempt);
  `.execute(db);
}
