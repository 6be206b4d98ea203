import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { ExifTool } from 'exiftool-vendored';
import { createEntry, defaultCalendarId } from '../../../test/support/calendar.ts';
import { runCommand } from '../../../test/support/commands.ts';
import { makeTeam } from '../../../test/support/factories.ts';
import { createProject, dataUrl, readImage } from '../../../test/support/metadata.ts';
import { startTestServer, type TestServer } from '../../../test/support/server.ts';

// The event's sidecar goes into a project with storexmpfile, a test image is processed with it,
// and ExifTool (the oracle) reads the event's fields from the result.
let server: TestServer;
const exiftool = new ExifTool({ maxProcs: 1 });
let workDir = '';
before(async () => {
  server = await startTestServer();
  workDir = mkdtempSync(path.join(tmpdir(), 'calendar-xmp-'));
});
after(async () => {
  await exiftool.end();
  rmSync(workDir, { recursive: true, force: true });
  await server.stop();
});

type Tags = Record<string, unknown>;
const read = async (file: string) =>
  (await exiftool.readRaw(file, { readArgs: ['-G1', '-a', '-struct', '-n'], useMWG: false })) as Tags;

test("the event's XMP download is a sidecar storexmpfile takes and ExifTool reads", async () => {
  const team = await makeTeam(server);
  const c = team.owner.client;
  const cal = await defaultCalendarId(server, team.teamId);
  const id = await createEntry(c, team.teamUuid, cal, {
    startdatetime: '2026-03-14T15:30:00+01:00',
    category: 'sport',
    subcategory: 'football',
    scene: 'Bundesliga',
    team1: 'FC Bayern Munich',
    team2: 'Borussia Dortmund',
    location: 'Allianz Arena',
    city: 'Munich',
    state: 'Bavaria',
    country: 'Germany',
    urgency: 2,
  });

  const res = await fetch(`${server.url}/api/${team.teamUuid}/calendar/xmp/${id}`, {
    headers: { cookie: `pr_session=${c.cookie('pr_session')}` },
  });
  assert.equal(res.status, 200);
  assert.match(res.headers.get('content-type') ?? '', /^application\/rdf\+xml/);
  assert.match(
    res.headers.get('content-disposition') ?? '',
    /attachment; filename="2026-03-14 FC Bayern Munich - Borussia Dortmund\.xmp"/,
  );
  const sidecar = await res.text();
  assert.ok(sidecar.startsWith('<?xpacket begin='), sidecar.slice(0, 80));

  // Photo Mechanic reads the sidecar itself: the legacy category fields and urgency are in it.
  const sidecarFile = path.join(workDir, 'event.xmp');
  writeFileSync(sidecarFile, sidecar);
  const own = await read(sidecarFile);
  assert.equal(own['XMP-photoshop:Category'], 'SPO');
  assert.deepEqual(own['XMP-photoshop:SupplementalCategories'], ['sport', 'football', 'Bundesliga']);
  assert.equal(own['XMP-photoshop:Urgency'], 2);

  const projectId = await createProject(server, team, 'Spieltag 26');
  const stored = await runCommand(c, team.teamUuid, 'storexmpfile', {
    dbprojectid: projectId,
    filename: 'event.xmp',
    content: dataUrl(Buffer.from(sidecar), 'application/rdf+xml'),
  });
  assert.equal(stored.state, 'ok', JSON.stringify(stored.detail));

  const done = await runCommand<{ a: number; b: string }>(c, team.teamUuid, 'processimage', {
    dbprojectid: projectId,
    filename: 'match.jpg',
    content: dataUrl(readImage('exiv2-empty.jpg')),
  });
  assert.equal(done.state, 'ok', JSON.stringify(done.detail));
  const image = await fetch(
    `${server.url}/api/${team.teamUuid}/command/downloadresultfile/${done.detail.a}/${done.detail.b}`,
    { headers: { cookie: `pr_session=${c.cookie('pr_session')}` } },
  );
  assert.equal(image.status, 200);
  const file = path.join(workDir, 'match.jpg');
  writeFileSync(file, Buffer.from(await image.arrayBuffer()));
  const tags = await read(file);
  assert.equal(tags['XMP-photoshop:Headline'], 'FC Bayern Munich - Borussia Dortmund');
  assert.equal(tags['XMP-iptcExt:Event'], 'Bundesliga: FC Bayern Munich - Borussia Dortmund');
  assert.equal(tags['XMP-photoshop:DateCreated'], '2026:03:14 15:30:00+01:00');
  assert.deepEqual(
    [
      tags['XMP-photoshop:City'],
      tags['XMP-photoshop:State'],
      tags['XMP-photoshop:Country'],
      tags['XMP-iptcCore:Location'],
    ],
    ['Munich', 'Bavaria', 'Germany', 'Allianz Arena'],
  );
  const created = (tags['XMP-iptcExt:LocationCreated'] as Tags[] | Tags) ?? {};
  const shown = (tags['XMP-iptcExt:LocationShown'] as Tags[] | Tags) ?? {};
  for (const location of [created, shown]) {
    const first = Array.isArray(location) ? location[0] : location;
    assert.deepEqual(
      [first?.City, first?.ProvinceState, first?.CountryName, first?.Sublocation],
      ['Munich', 'Bavaria', 'Germany', 'Allianz Arena'],
      JSON.stringify(location),
    );
  }
  // IPTC-IIM is written in sync with the XMP.
  assert.equal(tags['IPTC:Headline'], 'FC Bayern Munich - Borussia Dortmund');
  assert.equal(tags['IPTC:City'], 'Munich');
});
