import { type Kysely, sql } from 'kysely';

// Issue 27 item 8: every team has its own list of event flags (the bits of calendar_entries.flags),
// which its owner adds to, renames and removes from. Existing teams start with the spec's list
// (§3 'Event flags by bit id'); `preset` names a default flag whose label the UI translates,
// until the owner renames it.
const specFlags: Array<[string, string]> = [
  ['folderCreated', 'Folder created correctly'],
  ['captionDe', 'Caption German'],
  ['captionEn', 'Caption English'],
  ['aiFinished', 'AI finished'],
  ['liveDe', 'Live German'],
  ['liveEnAgency', 'Live English agency'],
  ['archiveDe', 'Archive German'],
  ['archiveEnAgency', 'Archive English agency'],
  ['sFr', 's-fr'],
  ['pictureAgencyA', 'a picture agency (9)'],
  ['pictureAgencyB', 'a picture agency (10)'],
  ['iFr', 'i-fr'],
  ['ic', 'ic'],
  ['pa', 'PA'],
  ['shutter', 'Shutter'],
  ['pano', 'Pano'],
  ['poland', 'Poland'],
];

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table team_event_flags (
      team_id integer not null references teams(id) on delete cascade,
      bit integer not null check (bit between 0 and 30),
      name text not null,
      preset text,
      primary key (team_id, bit)
    )
  `.execute(db);
  // Issue 27 item 10: what an external calendar's last refresh changed, shown on the calendar list
  // beside when it ran ({inserted, updated, removed}).
  await sql`alter table calendars add column last_changes jsonb`.execute(db);
  const values = sql.join(
    specFlags.map(([preset, name], bit) => sql`(${bit}::int, ${name}::text, ${preset}::text)`),
  );
  await sql`
    insert into team_event_flags (team_id, bit, name, preset)
    select t.id, d.bit, d.name, d.preset
    from teams t cross join (values ${values}) as d(bit, name, preset)
  `.execute(db);
}
