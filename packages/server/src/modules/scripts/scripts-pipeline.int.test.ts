import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { errorPositionSeparator } from '@photorelay/contract/metadata';
import { readJpegMetadata } from '@photorelay/xmp/index';
import { ftpUpload } from '../../../test/support/camera.ts';
import { runCommand } from '../../../test/support/commands.ts';
import { makeFolder, makeTeam, rootFolder } from '../../../test/support/factories.ts';
import { startTestServer, type TestServer } from '../../../test/support/server.ts';
import { dataUrl, readImage } from '../metadata/metadata.test-support.ts';
import {
  jobsOf,
  processedUpload,
  setupProject,
  storeScript,
  type Team,
  waitForJobs,
} from './scripts.test-support.ts';

// A random passive range so parallel test processes do not compete for the same ports.
const pasvMin = 40000 + Math.floor(Math.random() * 200) * 100;
let server: TestServer;
before(async () => {
  server = await startTestServer({ PASV_PORTS: `${pasvMin}-${pasvMin + 99}` });
});
after(() => server.stop());

const caption = (values: Array<{ propertytypeids: string; value: string }>) =>
  values.find((v) => v.propertytypeids === 'description')?.value;

/** A project delivering to two other projects ('Web' and 'Print'), so delivery needs no FTP server. */
async function routedProject(team: Team, parentFolderId?: number) {
  const c = team.owner.client;
  const source = await setupProject(server, team, 'Desk', parentFolderId);
  const web = await setupProject(server, team, 'Web');
  const print = await setupProject(server, team, 'Print');
  for (const target of [web, print])
    assert.equal(
      (await c.post(`/api/${team.teamUuid}/project/${source.id}/destinationproject/${target.id}`)).status,
      200,
    );
  return { source, web, print };
}

describe('scripts in the upload pipeline', () => {
  test('folder then project scripts rename, caption and skip a destination', async () => {
    const team = await makeTeam(server);
    const c = team.owner.client;
    const projects = await rootFolder(server, team, 'projects');
    const sport = await makeFolder(server, team, projects.id, 'Sport');
    const { source, web, print } = await routedProject(team, sport);
    await storeScript(c, team, { dbfolderid: projects.id }, "meta.set('caption', 'root');");
    await storeScript(c, team, { dbfolderid: sport }, "meta.append('caption', 'sport');");
    const project = await storeScript(
      c,
      team,
      { dbprojectid: source.id },
      "meta.append('caption', file.folder); file.name = 'web-' + file.name; if (file.folder === 'match') skip('Print'); log('done', file.name);",
    );
    assert.equal(project.state, 'ok', JSON.stringify(project.detail));

    await ftpUpload(source.ftpPort, source.account, 'match/IMG_1.jpg', readImage('exiftool-IPTC.jpg'));
    const jobs = await waitForJobs(
      c,
      team,
      source.id,
      (j) => j.length === 2 && j.every((x) => x.state !== 'scheduled' && x.state !== 'running'),
    );
    const byName = Object.fromEntries(jobs.map((j) => [j.destprojectname, j]));
    assert.equal(byName.Web?.state, 'succeeded');
    assert.equal(byName.Print?.state, 'skipped');
    assert.deepEqual(byName.Web?.detail.processing?.script?.log, ['done web-IMG_1.jpg']);

    const delivered = await processedUpload(server, web.id);
    assert.equal(delivered.path, 'match/web-IMG_1.jpg');
    // Web's own processing runs the root folder's script again: the source's result is checked.
    const meta = await readJpegMetadata((await processedUpload(server, source.id)).bytes);
    assert.equal(caption(meta.values), 'root sport match');
    assert.equal((await jobsOf(c, team, print.id)).length, 0, 'nothing reached the skipped project');
  });

  test('a script error fails the jobs with its position; retry now runs the fixed script', async () => {
    const team = await makeTeam(server);
    const c = team.owner.client;
    const { source, web } = await routedProject(team);
    const stored = await storeScript(
      c,
      team,
      { dbprojectid: source.id },
      "meta.set('caption', 'one');\nnull.boom;",
    );
    assert.equal(stored.state, 'ok', JSON.stringify(stored.detail));
    await ftpUpload(source.ftpPort, source.account, 'IMG_2.jpg', readImage('exiftool-IPTC.jpg'));
    const failed = await waitForJobs(
      c,
      team,
      source.id,
      (j) => j.length === 2 && j.every((x) => x.state === 'failed'),
    );
    assert.match(
      failed[0]?.errortext ?? '',
      /^Script error: test\.script 2:5: cannot read property 'boom' of null/,
    );
    assert.equal((await processedUpload(server, source.id)).state, 'failed');

    await storeScript(c, team, { dbprojectid: source.id }, "meta.set('caption', 'fixed');");
    for (const job of failed)
      assert.equal((await c.post(`/api/${team.teamUuid}/job/${job.id}/retry`)).status, 200);
    await waitForJobs(c, team, source.id, (j) => j.every((x) => x.state === 'succeeded'));
    const meta = await readJpegMetadata((await processedUpload(server, web.id)).bytes);
    assert.equal(caption(meta.values), 'fixed');
  });

  test('reject(reason) ends the jobs as rejected; an endless loop fails and the next upload is processed', async () => {
    const team = await makeTeam(server);
    const c = team.owner.client;
    const { source } = await routedProject(team);
    await storeScript(
      c,
      team,
      { dbprojectid: source.id },
      "if (file.name.startsWith('X')) reject('no model release'); else for (;;) {}",
    );
    await ftpUpload(source.ftpPort, source.account, 'X_1.jpg', readImage('exiftool-IPTC.jpg'));
    const rejected = await waitForJobs(
      c,
      team,
      source.id,
      (j) => j.length === 2 && j.every((x) => x.state === 'rejected'),
    );
    assert.equal(rejected[0]?.errortext, 'no model release');
    assert.equal(rejected[0]?.canRetry, false);

    await ftpUpload(source.ftpPort, source.account, 'Y_1.jpg', readImage('exiftool-IPTC.jpg'));
    const looped = await waitForJobs(
      c,
      team,
      source.id,
      (j) => j.length === 4 && j.filter((x) => x.state === 'failed').length === 2,
    );
    assert.match(looped.find((x) => x.state === 'failed')?.errortext ?? '', /time limit of 200 ms exceeded/);

    await storeScript(c, team, { dbprojectid: source.id }, "meta.set('headline', 'after the loop')");
    await ftpUpload(source.ftpPort, source.account, 'Z_1.jpg', readImage('exiftool-IPTC.jpg'));
    await waitForJobs(
      c,
      team,
      source.id,
      (j) => j.length === 6 && j.filter((x) => x.state === 'succeeded').length === 2,
    );
    // Rejected is not failed: no give-up mail names the rejected file (the looped one may have one).
    const mails = server.mail.mails.filter((m) => m.to === team.owner.email);
    assert.equal(mails.filter((m) => m.text.includes('X_1.jpg')).length, 0, JSON.stringify(mails));
  });

  test('the test image gets byte for byte what a real upload gets, with a report', async () => {
    const team = await makeTeam(server);
    const c = team.owner.client;
    const { source } = await routedProject(team);
    await c.put(`/api/${team.teamUuid}/project/${source.id}/xmpvalue/headline`, {
      value: 'Template {filenamebase}',
    });
    await c.put(`/api/${team.teamUuid}/project/${source.id}/xmpvaluemode/headline/mode/replace`, {});
    await storeScript(
      c,
      team,
      { dbprojectid: source.id },
      "meta.set('caption', meta.get('headline') + ' / ' + exif.get('Make')); skip('Print'); file.name = 'renamed.jpg'; log('hi');",
    );
    const image = readImage('exiftool-XMP.jpg');
    const done = await runCommand<{
      a: number;
      b: string;
      report: {
        filename: string;
        skipped: string[];
        log: string[];
        before: unknown[];
        after: Array<{ propertytypeids: string; value: string }>;
      };
    }>(c, team.teamUuid, 'processimage', {
      dbprojectid: source.id,
      filename: 'IMG_7.jpg',
      content: dataUrl(image),
    });
    assert.equal(done.state, 'ok', JSON.stringify(done.detail));
    assert.equal(done.detail.report.filename, 'renamed.jpg');
    assert.deepEqual(done.detail.report.skipped, ['Print']);
    assert.deepEqual(done.detail.report.log, ['hi']);
    assert.equal(caption(done.detail.report.after), 'Template IMG_7 / FUJIFILM');
    assert.notEqual(
      caption(done.detail.report.before as typeof done.detail.report.after),
      'Template IMG_7 / FUJIFILM',
    );
    const download = await fetch(
      `${server.url}/api/${team.teamUuid}/command/downloadresultfile/${done.detail.a}/${done.detail.b}`,
      {
        headers: { cookie: `pr_session=${c.cookie('pr_session')}` },
      },
    );
    const tested = Buffer.from(await download.arrayBuffer());

    await ftpUpload(source.ftpPort, source.account, 'IMG_7.jpg', image);
    await waitForJobs(
      c,
      team,
      source.id,
      (j) => j.length === 2 && j.every((x) => x.state === 'succeeded' || x.state === 'skipped'),
    );
    const real = await processedUpload(server, source.id);
    assert.equal(real.processed_filename, 'renamed.jpg');
    assert.ok(
      tested.length > 0 && tested.equals(real.bytes),
      'the test result and the real upload are byte-identical',
    );

    await storeScript(c, team, { dbprojectid: source.id }, 'throw 42');
    const failed = await runCommand<string>(c, team.teamUuid, 'processimage', {
      dbprojectid: source.id,
      filename: 'IMG_7.jpg',
      content: dataUrl(image),
    });
    assert.equal(failed.state, 'error');
    assert.equal(failed.detail, `test.script${errorPositionSeparator}uncaught 42`);
  });
});
