import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    -- Issue 16 item 2: what processing applied to an upload (template values and modes, scripts,
    -- destination set), so a re-send is a duplicate only when that is unchanged too.
    alter table uploads add column processing_fingerprint text;
  `.execute(db);
}
