import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    -- Issue 25: the scripts' logs kept with uploads count against the team's storage quota; the
    -- quota's sum reads a team's uploads that have one by this index, not the whole table.
    create index uploads_team_script_log on uploads(team_id) where (processing_detail -> 'script') is not null;
  `.execute(db);
}
