import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { makeProjectWithServer, makeTeam } from '../../test/support/factories.ts';
import { startTestServer, type TestServer } from '../../test/support/server.ts';
import { insertIngestSession } from './queries.ts';

let server: TestServer;
before(async () => {
  server = await startTestServer({}, { role: 'web' });
});
after(() => server.stop());

const session = (projectId: number, username: string) => ({
  project_id: projectId,
  username,
  protocol: 'ftp',
  tls: false,
  remote_address: '192.0.2.7',
  login_result: 'ok',
  entries: JSON.stringify([{ at: new Date().toISOString(), kind: 'command', text: 'STOR IMG_1.JPG' }]),
  started_at: new Date(),
  ended_at: new Date(),
});

test("a project keeps only its newest connections; a deleted project's last connection is dropped quietly", async () => {
  const db = server.running.ctx.db;
  const team = await makeTeam(server);
  const { projectId } = await makeProjectWithServer(server, team, 'Log');
  const { projectId: otherId } = await makeProjectWithServer(server, team, 'Other');
  await insertIngestSession(db, session(otherId, 'other'), 3);
  for (const name of ['c1', 'c2', 'c3', 'c4', 'c5'])
    await insertIngestSession(db, session(projectId, name), 3);
  const kept = async (id: number) =>
    (
      await db
        .selectFrom('ingest_sessions')
        .select('username')
        .where('project_id', '=', id)
        .orderBy('id')
        .execute()
    ).map((r) => r.username);
  assert.deepEqual(await kept(projectId), ['c3', 'c4', 'c5']);
  assert.deepEqual(await kept(otherId), ['other'], "another project's log is not touched");

  // The camera was still connected when the project was deleted; its session ends afterwards.
  const c = team.owner.client;
  assert.equal((await c.del(`/api/${team.teamUuid}/project/${projectId}`)).status, 200);
  await insertIngestSession(db, session(projectId, 'late'), 3);
  assert.deepEqual(await kept(projectId), []);
});
