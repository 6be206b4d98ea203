import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    -- A project's metadata template (spec §3 XMP value): one row per value; position orders the
    -- items of a Bag/Seq or array of structures, lang is the language of an Alt value.
    create table project_xmp_values (
      project_id integer not null references projects(id) on delete cascade,
      propertytypeids text not null,
      position integer not null default 0,
      lang text not null default 'x-default',
      value text not null,
      unique (project_id, propertytypeids, position, lang)
    );

    -- Spec §3 XMP mode: how a property's value is applied; a property without a row is off.
    create table project_xmp_modes (
      project_id integer not null references projects(id) on delete cascade,
      property_id text not null,
      mode text not null check (mode in ('off', 'replace', 'append', 'prepend', 'merge')),
      primary key (project_id, property_id)
    );

    -- Test images of the processimage command: the upload until it is stamped, then the result
    -- until it expires (downloadresultfile). Blobs are removed with the row.
    create table metadata_test_images (
      id serial primary key,
      team_id integer not null references teams(id) on delete cascade,
      project_id integer references projects(id) on delete set null,
      filename text not null,
      source_blob_key text,
      command_id integer references commands(id) on delete set null,
      token_hash text,
      result_blob_key text,
      result_size bigint,
      expires_at timestamptz not null,
      created_at timestamptz not null default now()
    );
    create index metadata_test_images_expiry on metadata_test_images(expires_at);
    create index metadata_test_images_command on metadata_test_images(team_id, command_id);
  `.execute(db);
}
