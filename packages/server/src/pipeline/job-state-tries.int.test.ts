import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { after, before, test } from 'node:test';
import { sql } from 'kysely';
import { ftpUpload } from '../../test/support/camera.ts';
import {
  destinationUser,
  startFtpDestination,
  type TempDirDestination,
} from '../../test/support/destinations.ts';
import { makeProjectWithServer, makeTeam } from '../../test/support/factories.ts';
import { startTestServer, type TestServer } from '../../test/support/server.ts';

// Issue 29 item 6: after kill -9, jobs read "succeeded" with no try recorded: the job's state and
// its try were two statements. A try that cannot be written (here a real trigger in the real
// database refuses it, as a crash between the two would) must take the job's new state with it.

let server: TestServer;
let destination: TempDirDestination;
before(async () => {
  server = await startTestServer({ ALLOW_PRIVATE_NETWORKS: '1', JOB_LEASE_SECONDS: '2' });
  destination = await startFtpDestination();
});
after(async () => {
  await server.stop();
  await destination.close();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

test('a job never reads "succeeded" without its try: state and try are written together', async () => {
  const db = server.running.ctx.db;
  const team = await makeTeam(server);
  // Unique: the trigger only refuses this test's tries (other test files may share the database).
  const serverName = `tries-${crypto.randomUUID().slice(0, 8)}`;
  const { projectId, account } = await makeProjectWithServer(server, team, 'State and tries', {
    name: serverName,
    port: destination.port,
    path: 'together',
    ...destinationUser,
  });
  const fn = `refuse_try_${serverName.replace(/-/g, '_')}`;
  await sql
    .raw(
      `create function ${fn}() returns trigger language plpgsql as $$ begin
         if exists (select 1 from jobs where id = new.job_id and ftpservername = '${serverName}') then
           raise exception 'try refused (test)';
         end if;
         return new;
       end $$;
       create trigger ${fn} before insert on job_tries for each row execute function ${fn}();`,
    )
    .execute(db);
  const dropTrigger = () =>
    sql.raw(`drop trigger if exists ${fn} on job_tries; drop function if exists ${fn}();`).execute(db);
  try {
    const picture = crypto.randomBytes(200_000);
    await ftpUpload(server.running.ingest?.ftpPort, account, 'IMG_0001.JPG', picture);
    const job = async () =>
      db
        .selectFrom('jobs')
        .select(['id', 'state'])
        .select((eb) =>
          eb
            .selectFrom('job_tries')
            .whereRef('job_tries.job_id', '=', 'jobs.id')
            .select(eb.fn.countAll<number>().as('n'))
            .as('tries'),
        )
        .where('project_id', '=', projectId)
        .executeTakeFirst();
    // The file reaches the destination (the transfer works); only noting the try fails.
    for (let i = 0; i < 300 && destination.read('together/IMG_0001.JPG') === null; i++) await sleep(50);
    assert.ok(destination.read('together/IMG_0001.JPG'), 'delivered');
    // Over a few seconds (and a lease of 2 s run out, so the job is taken again): never succeeded without a try.
    for (let i = 0; i < 30; i++) {
      const row = await job();
      assert.ok(row, 'job exists');
      assert.ok(
        !(row.state === 'succeeded' && Number(row.tries) === 0),
        `job ${row.id} reads succeeded with no try recorded`,
      );
      await sleep(200);
    }
  } finally {
    await dropTrigger();
  }
  // Once tries can be written again, the job is delivered again and ends succeeded with its try.
  let row: { state: string; tries: unknown } | undefined;
  for (let i = 0; i < 300; i++) {
    row = await db
      .selectFrom('jobs')
      .select(['state'])
      .select((eb) =>
        eb
          .selectFrom('job_tries')
          .whereRef('job_tries.job_id', '=', 'jobs.id')
          .select(eb.fn.countAll<number>().as('n'))
          .as('tries'),
      )
      .where('project_id', '=', projectId)
      .executeTakeFirst();
    if (row?.state === 'succeeded') break;
    await sleep(100);
  }
  assert.equal(row?.state, 'succeeded');
  assert.ok(Number(row?.tries) >= 1, 'its try is recorded');
});
