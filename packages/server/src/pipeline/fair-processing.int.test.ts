import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { sql } from 'kysely';
import { ftpUpload } from '../../test/support/camera.ts';
import { makeTeam } from '../../test/support/factories.ts';
import { readImage } from '../../test/support/metadata.ts';
import { setupProject, storeScript, type Team } from '../../test/support/scripts.ts';
import { startTestServer, type TestServer } from '../../test/support/server.ts';

// Issue 25 item 4: team B's script runs into the sandbox's hard stop (~2.3 s each) and B sends
// 20 small files with 4 FTP clients; team A's next picture started delivery 30-47 s after it
// was received instead of 0.04 s (uploads claimed strictly by id, one sandbox thread for all).

const pasvMin = 40000 + Math.floor(Math.random() * 200) * 100;
let server: TestServer;
before(async () => {
  server = await startTestServer({ PASV_PORTS: `${pasvMin}-${pasvMin + 99}` });
});
after(() => server.stop());

const loop = 'var a = []; while (true) a.push(new Array(1e5).fill(1));';

/** A project delivering into another project of its team (no FTP server needed). */
async function routedProject(team: Team, name: string) {
  const source = await setupProject(server, team, name);
  const target = await setupProject(server, team, `${name} out`);
  const linked = await team.owner.client.post(
    `/api/${team.teamUuid}/project/${source.id}/destinationproject/${target.id}`,
  );
  assert.equal(linked.status, 200);
  return source;
}

const jobStates = async (projectId: number) =>
  (
    await server.running.ctx.db
      .selectFrom('jobs')
      .select('state')
      .where('project_id', '=', projectId)
      .execute()
  ).map((j) => j.state);

test("another team's picture is delivered within 3 s while a team's script keeps hitting its hard stop", async () => {
  const b = await makeTeam(server, 'Looping');
  const looping = await routedProject(b, 'Loop');
  assert.equal((await storeScript(b.owner.client, b, { dbprojectid: looping.id }, loop)).state, 'ok');
  const a = await makeTeam(server, 'Calm');
  const calm = await routedProject(a, 'Desk');
  // A's project has a script too: it needs a sandbox thread of its own while B's loop holds one.
  const calmScript = "meta.set('caption', 'calm');";
  assert.equal((await storeScript(a.owner.client, a, { dbprojectid: calm.id }, calmScript)).state, 'ok');

  const image = readImage('exiftool-IPTC.jpg');
  // 20 pictures from 4 cameras.
  await Promise.all(
    [0, 1, 2, 3].map(async (camera) => {
      for (let i = 0; i < 5; i++)
        await ftpUpload(looping.ftpPort, looping.account, `B_${camera}_${i}.jpg`, image);
    }),
  );
  // B's loop is at work (the first hard stop takes over 2 s).
  await new Promise((resolve) => setTimeout(resolve, 1000));

  await ftpUpload(calm.ftpPort, calm.account, 'A_1.jpg', image);
  const received = Date.now();
  // Waited for up to 60 s, so that a failure names the time it took.
  for (;;) {
    const states = await jobStates(calm.id);
    if (states.length === 1 && states[0] === 'succeeded') break;
    assert.ok(
      Date.now() - received < 60_000,
      `A's picture not delivered after 60 s (jobs ${states.join(', ')})`,
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const delivered = Date.now() - received;
  const timing = await sql<{ processed: number; delivery: number }>`
    select extract(epoch from (t.started_at - u.received_at)) * 1000 as processed, t.duration_ms as delivery
    from uploads u join jobs j on j.upload_id = u.id join job_tries t on t.job_id = j.id
    where u.project_id = ${calm.id}`.execute(server.running.ctx.db);
  assert.ok(
    delivered < 3000,
    `A's picture was delivered ${delivered} ms after its 226 (${JSON.stringify(timing.rows)})`,
  );

  // B's pictures fail with the plain-worded stop, and after the second in a row its project waits.
  const backoff = async () =>
    server.running.ctx.db
      .selectFrom('script_backoffs')
      .select(['hard_stops', 'until'])
      .where('project_id', '=', looping.id)
      .executeTakeFirst();
  const deadline = Date.now() + 30_000;
  let noted = await backoff();
  while (!noted || noted.hard_stops < 2) {
    assert.ok(Date.now() < deadline, `hard stops noted: ${JSON.stringify(noted)}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
    noted = await backoff();
  }
  assert.ok(new Date(noted.until).getTime() > Date.now(), 'the looping project waits');
  const failed = await server.running.ctx.db
    .selectFrom('jobs')
    .select('errortext')
    .where('project_id', '=', looping.id)
    .where('state', '=', 'failed')
    .execute();
  assert.match(failed[0]?.errortext ?? '', /^Script error: .*time limit of 200 ms exceeded/);
  const waiting = (await jobStates(looping.id)).filter((s) => s === 'scheduled' || s === 'running');
  assert.ok(waiting.length > 0, 'some of B still wait');
});
