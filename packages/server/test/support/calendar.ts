import type { CalendarEntry } from '@photorelay/contract/calendar';
import type { TestClient } from './client.ts';
import type { TestServer } from './server.ts';

// Helpers the calendar's integration tests share.

export async function defaultCalendarId(server: TestServer, teamId: number) {
  const row = await server.running.ctx.db
    .selectFrom('calendars')
    .select('id')
    .where('team_id', '=', teamId)
    .where('type', '=', 'default')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** An external calendar with one entry, written straight to the tables (the ICS import is another area). */
export async function makeExternalEntry(server: TestServer, teamId: number, startAt: string) {
  const db = server.running.ctx.db;
  const root = await db
    .selectFrom('folders')
    .select('id')
    .where('team_id', '=', teamId)
    .where('type', '=', 'calendars')
    .where('parent_id', 'is', null)
    .executeTakeFirstOrThrow();
  const calendar = await db
    .insertInto('calendars')
    .values({
      team_id: teamId,
      folder_id: root.id,
      name: 'DFL',
      refname: `ext-${Math.random().toString(36).slice(2)}`,
      type: 'google',
      url: 'https://example.com/dfl.ics',
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const entry = await db
    .insertInto('calendar_entries')
    .values({
      team_id: teamId,
      calendar_id: calendar.id,
      start_at: startAt,
      end_at: startAt,
      summary: 'Hertha - Union',
      scene: 'Bundesliga',
      category: 'sport',
      external_uid: `uid-${calendar.id}`,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { calendarId: calendar.id, entryId: entry.id };
}

export const matchDay = {
  startdatetime: '2026-03-14T15:30:00+01:00',
  category: 'sport',
  subcategory: 'football',
  scene: 'Bundesliga',
  team1: 'FC Bayern München',
  team2: 'Borussia Dortmund',
  location: 'Allianz Arena',
  city: 'München',
  state: 'Bayern',
  country: 'Deutschland',
  urgency: 3,
};

export async function createEntry(
  client: TestClient,
  teamUuid: string,
  calendarId: number,
  body: object = matchDay,
) {
  const res = await client.post<{ calendarentryid: number }>(
    `/api/${teamUuid}/calendar/${calendarId}/entry`,
    body,
  );
  if (res.status !== 200) throw new Error(`entry refused: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.calendarentryid;
}

export async function getEntry(client: TestClient, teamUuid: string, id: number) {
  return client.get<{ entry: CalendarEntry; error?: string }>(`/api/${teamUuid}/calendarentry/${id}`);
}
