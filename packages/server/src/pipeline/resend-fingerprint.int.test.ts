import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { ftpUpload } from '../../test/support/camera.ts';
import { makeTeam } from '../../test/support/factories.ts';
import { startTestServer, type TestServer } from '../../test/support/server.ts';
import { readImage } from '../modules/metadata/metadata.test-support.ts';
import { setupProject, waitForJobs } from '../modules/scripts/scripts.test-support.ts';

// Issue 16 item 2: a re-sent picture (same name and content within a day) is a duplicate only
// while the processing that would apply is unchanged: the template's values and modes, the
// project's and its folders' scripts, and the destination set. Scripts are in the fingerprint
// but not exercised here: on this branch a processed script keeps the test process from exiting.

const pasvMin = 40000 + Math.floor(Math.random() * 200) * 100;
let server: TestServer;
before(async () => {
  server = await startTestServer({ PASV_PORTS: `${pasvMin}-${pasvMin + 99}` });
});
after(() => server.stop());

test('a re-send after the template values, modes or destinations changed is delivered again', async () => {
  const team = await makeTeam(server);
  const c = team.owner.client;
  const source = await setupProject(server, team, 'Desk');
  const web = await setupProject(server, team, 'Web');
  const print = await setupProject(server, team, 'Print');
  const route = (target: number) =>
    c.post(`/api/${team.teamUuid}/project/${source.id}/destinationproject/${target}`);
  assert.equal((await route(web.id)).status, 200);
  const picture = readImage('exiftool-IPTC.jpg');

  let expected: string[] = [];
  /** Sends the same picture again; the new jobs must end in `states` (one per destination). */
  const resend = async (step: string, ...states: string[]) => {
    await ftpUpload(source.ftpPort, source.account, 'IMG_1.jpg', picture);
    expected = [...expected, ...states].sort();
    const jobs = await waitForJobs(
      c,
      team,
      source.id,
      (j) => j.length === expected.length && j.every((x) => x.state !== 'scheduled' && x.state !== 'running'),
    );
    assert.deepEqual(jobs.map((j) => j.state).sort(), expected, step);
  };

  await resend('first upload', 'succeeded');
  await resend('nothing changed', 'duplicate');

  const put = async (url: string, body: unknown = {}) =>
    assert.equal((await c.put(`/api/${team.teamUuid}/project/${source.id}${url}`, body)).status, 200, url);
  await put('/xmpvaluemode/headline/mode/replace');
  await put('/xmpvalue/headline', { value: 'Caption fixed' });
  await resend('caption fixed', 'succeeded');
  await resend('again unchanged', 'duplicate');

  await put('/xmpvaluemode/headline/mode/append');
  await resend('mode changed', 'succeeded');

  assert.equal((await route(print.id)).status, 200);
  await resend('a destination added', 'succeeded', 'succeeded');
  await resend('all unchanged', 'duplicate', 'duplicate');
});
