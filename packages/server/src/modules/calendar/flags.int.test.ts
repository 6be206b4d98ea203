import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { eventFlags, type TeamFlag } from '@photorelay/contract/calendar';
import {
  createEntry,
  defaultCalendarId,
  getEntry,
  makeExternalEntry,
} from '../../../test/support/calendar.ts';
import { makeMember, makeTeam } from '../../../test/support/factories.ts';
import { startTestServer, type TestServer } from '../../../test/support/server.ts';

// Issue 27 item 8: flags are the team's own (the spec's list to start with), kept by owners and
// operators; a flag set on events does not vanish silently; an external entry becomes a team
// event through the dialog and keeps its source.

let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(() => server.stop());

type FlagList = { flags: TeamFlag[]; error?: string; message?: string };

test("each team keeps its own flags: the spec's list first, then added, renamed and removed", async () => {
  const team = await makeTeam(server);
  const other = await makeTeam(server);
  const c = team.owner.client;
  const base = `/api/${team.teamUuid}`;
  const cal = await defaultCalendarId(server, team.teamId);

  const start = await c.get<FlagList>(`${base}/calendarflags`);
  assert.equal(start.status, 200);
  assert.deepEqual(
    start.body.flags.map((flag) => [flag.bit, flag.preset]),
    eventFlags.map((key, bit) => [bit, key]),
    "a new team starts with the spec's 17 flags",
  );
  assert.equal(start.body.flags[16]?.name, 'Poland');

  // Removing an unused flag: gone from the list, its bit can no longer be ticked.
  const removed = await c.del<FlagList>(`${base}/calendarflags/16`);
  assert.equal(removed.status, 200);
  assert.ok(!removed.body.flags.some((flag) => flag.bit === 16));
  const id = await createEntry(c, team.teamUuid, cal);
  assert.equal((await c.put(`${base}/calendarentry/${id}/flag/16`, { value: true })).status, 400);
  // The other team still has its Poland.
  const theirs = await other.owner.client.get<FlagList>(`/api/${other.teamUuid}/calendarflags`);
  assert.equal(theirs.body.flags.length, 17);

  // Added: the lowest free bit; usable on events at once. Renamed: shown as typed, no preset.
  const added = await c.post<FlagList>(`${base}/calendarflags`, { name: '  Bild am Sonntag ' });
  assert.equal(added.status, 200);
  const bild = added.body.flags.find((flag) => flag.name === 'Bild am Sonntag');
  assert.deepEqual([bild?.bit, bild?.preset], [16, null]);
  assert.equal((await c.put(`${base}/calendarentry/${id}/flag/16`, { value: true })).status, 200);
  const renamed = await c.put<FlagList>(`${base}/calendarflags/9`, { name: 'dpa' });
  assert.deepEqual([renamed.body.flags[9]?.name, renamed.body.flags[9]?.preset], ['dpa', null]);
  assert.equal((await c.put(`${base}/calendarflags/9`, { name: '   ' })).status, 400);
  assert.equal((await c.post(`${base}/calendarflags`, { name: 'x'.repeat(41) })).status, 400);
  assert.equal((await c.put(`${base}/calendarflags/20`, { name: 'nothing here' })).status, 404);

  // In use: refused with where it is set, and nothing changes; with force it is cleared there.
  const inUse = await c.del<FlagList>(`${base}/calendarflags/16`);
  assert.equal(inUse.status, 409);
  assert.match(
    inUse.body.message ?? '',
    /set on 1 events: FC Bayern München - Borussia Dortmund \(14\.03\.2026\)/,
  );
  const listed = await c.get<FlagList>(`${base}/calendarflags`);
  const stillThere = listed.body.flags.find((flag) => flag.bit === 16);
  assert.deepEqual(
    [stillThere?.usedBy, stillThere?.usedIn.map((entry) => [entry.id, entry.startDate])],
    [1, [[id, '14.03.2026']]],
  );
  assert.equal((await getEntry(c, team.teamUuid, id)).body.entry.flags, 1 << 16);
  const forced = await c.del<FlagList>(`${base}/calendarflags/16?force=true`);
  assert.equal(forced.status, 200);
  assert.equal((await getEntry(c, team.teamUuid, id)).body.entry.flags, 0, 'cleared on the event');
  // A flag added later on that bit starts unset everywhere.
  const again = await c.post<FlagList>(`${base}/calendarflags`, { name: 'Neu' });
  assert.equal(again.body.flags.find((flag) => flag.bit === 16)?.usedBy, 0);

  // An operator keeps the list too; a photographer neither reads nor changes it.
  const operator = await makeMember(server, team, 'Operator');
  assert.equal((await operator.client.post(`${base}/calendarflags`, { name: 'Operator' })).status, 200);
  const photographer = await makeMember(server, team, 'Photographer');
  assert.equal((await photographer.client.get(`${base}/calendarflags`)).status, 403);
  assert.equal((await photographer.client.post(`${base}/calendarflags`, { name: 'P' })).status, 403);

  // At most 31 flags (the bits of the entry's integer).
  for (let n = 0; n < 31; n++) {
    const res = await c.post<FlagList>(`${base}/calendarflags`, { name: `f${n}` });
    if (res.status === 409) {
      assert.equal((await c.get<FlagList>(`${base}/calendarflags`)).body.flags.length, 31);
      return;
    }
  }
  assert.fail('a 32nd flag was accepted');
});

test('a team event made from an external entry in the dialog keeps category, scene and source', async () => {
  const team = await makeTeam(server);
  const c = team.owner.client;
  const base = `/api/${team.teamUuid}`;
  const cal = await defaultCalendarId(server, team.teamId);
  const external = await makeExternalEntry(server, team.teamId, '2026-05-02T13:30:00Z');
  const body = {
    startDate: '02.05.2026',
    startTime: '15:30',
    category: 'sport',
    subcategory: 'football',
    scene: 'Bundesliga',
    summary: 'Hertha - Union',
    sourceEntryId: external.entryId,
  };
  const made = await c.post<{ calendarentryid: number }>(`${base}/calendar/${cal}/entry`, body);
  assert.equal(made.status, 200);
  const entry = (await getEntry(c, team.teamUuid, made.body.calendarentryid)).body.entry;
  assert.deepEqual(
    [entry.sourceEntryId, entry.scene, entry.subcategory, entry.localizedStartTime],
    [external.entryId, 'Bundesliga', 'football', '15:30'],
  );
  // Only an external entry of this team can be the source.
  const other = await makeTeam(server);
  const foreign = await makeExternalEntry(server, other.teamId, '2026-05-02T13:30:00Z');
  assert.equal(
    (await c.post(`${base}/calendar/${cal}/entry`, { ...body, sourceEntryId: foreign.entryId })).status,
    404,
  );
  const teamEvent = made.body.calendarentryid;
  assert.equal(
    (await c.post(`${base}/calendar/${cal}/entry`, { ...body, sourceEntryId: teamEvent })).status,
    400,
  );
});
