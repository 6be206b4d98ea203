import assert from 'node:assert/strict';
import { createWriteStream, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { after, before, test } from 'node:test';
import { ExifTool } from 'exiftool-vendored';
import { createEntry, defaultCalendarId, matchDay } from '../../../test/support/calendar.ts';
import { ftpUpload } from '../../../test/support/camera.ts';
import { makeMember, makeTeam } from '../../../test/support/factories.ts';
import {
  createProject,
  dataUrl,
  processedUploads,
  readImage,
  withCameraSerial,
} from '../../../test/support/metadata.ts';
import { startTestServer, type TestServer } from '../../../test/support/server.ts';

// Event-aware stamping end to end: a booked event of the team's calendar, pictures uploaded over
// FTP whose EXIF capture time falls inside or outside it, and ExifTool (the oracle) reading what
// the processed files carry.
const pasvMin = 40000 + Math.floor(Math.random() * 200) * 100;
let server: TestServer;
const exiftool = new ExifTool({ maxProcs: 1 });
let workDir = '';
before(async () => {
  server = await startTestServer({ PASV_PORTS: `${pasvMin}-${pasvMin + 99}` });
  workDir = mkdtempSync(path.join(tmpdir(), 'event-stamp-'));
});
after(async () => {
  await exiftool.end();
  rmSync(workDir, { recursive: true, force: true });
  await server.stop();
});

type Team = Awaited<ReturnType<typeof makeTeam>>;
type Tags = Record<string, unknown>;

/** A sample JPEG with the camera's capture time (and its offset, when given). */
async function shotAt(name: string, dateTimeOriginal: string, offset?: string) {
  const file = path.join(workDir, name);
  writeFileSync(file, readImage('exiv2-empty.jpg'));
  await exiftool.write(
    file,
    { DateTimeOriginal: dateTimeOriginal, ...(offset ? { OffsetTimeOriginal: offset } : {}) },
    { writeArgs: ['-overwrite_original'] },
  );
  return readFileSync(file);
}

async function ftpUploads(team: Team, projectId: number, files: Array<[string, Buffer]>) {
  const project = await team.owner.client.get<{
    project: { ftpAccounts: Array<{ username: string; password: string }> };
  }>(`/api/${team.teamUuid}/project/${projectId}`);
  for (const [name, bytes] of files)
    await ftpUpload(server.running.ingest?.ftpPort, project.body.project.ftpAccounts[0], name, bytes);
}

async function tagsOf(blobKey: string | null, name: string): Promise<Tags> {
  assert.ok(blobKey);
  const file = path.join(workDir, `out-${name}`);
  await pipeline(server.running.ctx.blobs.read(blobKey), createWriteStream(file));
  return (await exiftool.readRaw(file, { readArgs: ['-G1', '-a', '-struct'], useMWG: false })) as Tags;
}

test('a picture shot during a booked event gets its fields where the template leaves them unset; outside it gets none', async () => {
  const team = await makeTeam(server);
  const c = team.owner.client;
  const base = `/api/${team.teamUuid}`;
  const projectId = await createProject(server, team);
  const photographer = await makeMember(server, team, 'Photographer');

  // The setting: off by default, read by who reads the project, changed by who writes it.
  assert.deepEqual((await c.get(`${base}/project/${projectId}/eventstamping`)).body, {
    eventStamping: false,
  });
  assert.equal(
    (await c.put(`${base}/project/${projectId}/eventstamping`, { eventStamping: 'yes' })).status,
    400,
  );
  assert.equal((await c.put(`${base}/project/999999/eventstamping`, { eventStamping: true })).status, 404);
  // A photographer without permission on the project's folder does not see it.
  assert.equal(
    (await photographer.client.put(`${base}/project/${projectId}/eventstamping`, { eventStamping: true }))
      .status,
    404,
  );
  assert.deepEqual((await c.get(`${base}/project/${projectId}/eventstamping`)).body, {
    eventStamping: false,
  });
  assert.equal(
    (await c.put(`${base}/project/${projectId}/eventstamping`, { eventStamping: true })).status,
    200,
  );
  assert.deepEqual((await c.get(`${base}/project/${projectId}/eventstamping`)).body, { eventStamping: true });

  // The template sets the headline; everything else is the event's to fill.
  assert.equal(
    (await c.put(`${base}/project/${projectId}/xmpvalue/headline`, { value: 'Agentur' })).status,
    200,
  );
  assert.equal(
    (await c.put(`${base}/project/${projectId}/xmpvaluemode/headline/mode/replace`, {})).status,
    200,
  );

  // 15:30-17:30 in Berlin (CET), a photographer booked; an unbooked event at the same time.
  const cal = await defaultCalendarId(server, team.teamId);
  const match = await createEntry(c, team.teamUuid, cal);
  await createEntry(c, team.teamUuid, cal, { ...matchDay, team1: 'Hertha BSC', team2: 'Union Berlin' });
  const booked = await c.post(`${base}/booking`, {
    entryId: match,
    userId: photographer.userId,
    bookingState: 'accepted',
  });
  assert.equal(booked.status, 200, JSON.stringify(booked.body));

  await ftpUploads(team, projectId, [
    ['inside.jpg', await shotAt('inside.jpg', '2026:03:14 16:10:00', '+01:00')],
    // 17:10 UTC is 18:10 in Berlin: after the match (without the offset it would be inside).
    ['after.jpg', await shotAt('after.jpg', '2026:03:14 17:10:00', '+00:00')],
    // No offset: the camera's clock is read in the team's zone (Europe/Berlin): inside.
    ['local.jpg', await shotAt('local.jpg', '2026:03:14 17:10:00')],
  ]);
  const uploads = await processedUploads(server, projectId, 3);

  for (const name of ['inside.jpg', 'local.jpg']) {
    const upload = uploads.get(name);
    assert.ok(upload);
    const detail = (upload.processing_detail as { eventStamp?: Record<string, unknown> }).eventStamp;
    assert.deepEqual(detail, {
      entryId: match,
      summary: 'FC Bayern München - Borussia Dortmund',
      startAt: '2026-03-14T14:30:00.000Z',
      endAt: '2026-03-14T16:30:00.000Z',
      fields: ['eventName', 'locationsShown', 'sublocationName', 'cityName', 'provinceState', 'countryName'],
    });
    const tags = await tagsOf(upload.processed_blob_key, name);
    assert.equal(tags['XMP-photoshop:Headline'], 'Agentur', 'the template’s own value stays');
    assert.equal(tags['XMP-iptcExt:Event'], 'Bundesliga: FC Bayern München - Borussia Dortmund');
    assert.equal(tags['XMP-photoshop:City'], 'München');
    assert.equal(tags['XMP-photoshop:State'], 'Bayern');
    assert.equal(tags['XMP-photoshop:Country'], 'Deutschland');
    assert.equal(tags['XMP-iptcCore:Location'], 'Allianz Arena');
    assert.deepEqual(tags['XMP-iptcExt:LocationShown'], [
      { Sublocation: 'Allianz Arena', City: 'München', ProvinceState: 'Bayern', CountryName: 'Deutschland' },
    ]);
    assert.equal(tags['IPTC:City'], 'München', 'the IIM block carries it too');
  }

  const outside = uploads.get('after.jpg');
  assert.ok(outside);
  assert.equal((outside.processing_detail as { eventStamp?: unknown }).eventStamp, undefined);
  const tags = await tagsOf(outside.processed_blob_key, 'after.jpg');
  assert.equal(tags['XMP-photoshop:Headline'], 'Agentur');
  for (const tag of ['XMP-iptcExt:Event', 'XMP-photoshop:City', 'XMP-iptcExt:LocationShown', 'IPTC:City'])
    assert.equal(tags[tag], undefined, tag);
});

test('of two booked events at once, the camera’s photographer decides; without one, none is applied and the detail says why', async () => {
  const team = await makeTeam(server);
  const c = team.owner.client;
  const base = `/api/${team.teamUuid}`;
  const projectId = await createProject(server, team);
  assert.equal(
    (await c.put(`${base}/project/${projectId}/eventstamping`, { eventStamping: true })).status,
    200,
  );
  // Booked: "Photographer User" on the match, "Operator User" on a press conference overlapping it.
  const photographer = await makeMember(server, team, 'Photographer');
  const operator = await makeMember(server, team, 'Operator');
  const cal = await defaultCalendarId(server, team.teamId);
  const match = await createEntry(c, team.teamUuid, cal);
  const press = await createEntry(c, team.teamUuid, cal, {
    startdatetime: '2026-03-14T16:00:00+01:00',
    category: 'sport',
    scene: 'Pressekonferenz',
    summary: 'Pressekonferenz Union',
    city: 'Berlin',
  });
  for (const [entryId, userId] of [
    [match, photographer.userId],
    [press, operator.userId],
  ])
    assert.equal(
      (await c.post(`${base}/booking`, { entryId, userId, bookingState: 'accepted' })).status,
      200,
    );
  const file = await c.post(`${base}/file`, {
    name: 'photographers.json',
    content: dataUrl(Buffer.from(JSON.stringify({ '4021234': 'Photographer User' })), 'application/json'),
  });
  assert.equal(file.status, 200, JSON.stringify(file.body));

  const shot = await shotAt('both.jpg', '2026:03:14 16:10:00', '+01:00');
  await ftpUploads(team, projectId, [
    ['camera.jpg', withCameraSerial(shot, '4021234')],
    ['unknown.jpg', shot],
  ]);
  const uploads = await processedUploads(server, projectId, 2);
  const detail = (name: string) =>
    (uploads.get(name)?.processing_detail as { eventStamp?: Record<string, unknown> } | undefined)
      ?.eventStamp;
  assert.equal(detail('camera.jpg')?.entryId, match);
  const tags = await tagsOf(uploads.get('camera.jpg')?.processed_blob_key ?? null, 'camera.jpg');
  assert.equal(tags['XMP-photoshop:City'], 'München');
  assert.deepEqual(detail('unknown.jpg'), {
    ambiguous: [
      { entryId: match, summary: 'FC Bayern München - Borussia Dortmund' },
      { entryId: press, summary: 'Pressekonferenz Union' },
    ],
  });
  const untouched = uploads.get('unknown.jpg');
  assert.equal(untouched?.processed_blob_key, untouched?.blob_key, 'nothing applied: the file as it came');
});
