import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { scriptLimits } from '@photorelay/contract/scripts';
import { ftpUpload } from '../../../test/support/camera.ts';
import { makeTeam } from '../../../test/support/factories.ts';
import { readImage } from '../../../test/support/metadata.ts';
import { processedUpload, setupProject, storeScript } from '../../../test/support/scripts.ts';
import { startTestServer, type TestServer } from '../../../test/support/server.ts';
import { teamStorageUsed } from '../teams/quota.ts';

// Issue 25 (low): a script's log was stored whole with every upload (400 KB each: 200 lines of
// 2000 characters, a 9.8 MB job page). It is cut at 16 KB with a marker and counted in the
// team's storage quota.

const pasvMin = 40000 + Math.floor(Math.random() * 200) * 100;
let server: TestServer;
before(async () => {
  server = await startTestServer({ PASV_PORTS: `${pasvMin}-${pasvMin + 99}` });
});
after(() => server.stop());

test("a script's log is kept up to 16 KB per upload, cut with a marker, and counted in the quota", async () => {
  const team = await makeTeam(server);
  const other = await makeTeam(server);
  const c = team.owner.client;
  const project = await setupProject(server, team, 'Chatty');
  await storeScript(
    c,
    team,
    { dbprojectid: project.id },
    "log('first'); for (let i = 0; i < 300; i++) log(String(i).padEnd(2000, 'x'));",
  );
  const usedBefore = await teamStorageUsed(server.running.ctx, team.teamId);
  await ftpUpload(project.ftpPort, project.account, 'IMG_1.JPG', readImage('exiftool-XMP.jpg'));
  await processedUpload(server, project.id);
  const row = await server.running.ctx.db
    .selectFrom('uploads')
    .select('processing_detail')
    .where('project_id', '=', project.id)
    .executeTakeFirstOrThrow();
  const log = (row.processing_detail as { script: { log: string[] } }).script.log;
  const bytes = Buffer.byteLength(JSON.stringify(log));
  assert.ok(bytes <= scriptLimits.storedLogBytes + 1024, `the stored log is ${bytes} bytes`);
  assert.equal(log[0], 'first');
  assert.equal(log[1]?.slice(0, 3), '0xx');
  // 'first' and 8 lines of 2000 fit 16 KB with the marker; the sandbox keeps 200 lines.
  assert.equal(log.length, 10);
  assert.deepEqual([log[8]?.slice(0, 3), log[9]], ['7xx', '… log cut: 191 more lines']);
  const used = await teamStorageUsed(server.running.ctx, team.teamId);
  assert.ok(used - usedBefore >= bytes, `the quota counts the log (${used - usedBefore} bytes more)`);
  assert.ok(used - usedBefore < 2 * scriptLimits.storedLogBytes, `${used - usedBefore} bytes`);
  assert.equal(await teamStorageUsed(server.running.ctx, other.teamId), 0, "not another team's");
});
