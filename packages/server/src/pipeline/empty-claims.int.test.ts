import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { after, before, test } from 'node:test';
import type {
  KyselyPlugin,
  PluginTransformQueryArgs,
  PluginTransformResultArgs,
  RootOperationNode,
} from 'kysely';
import { ftpUpload } from '../../test/support/camera.ts';
import {
  destinationUser,
  startFtpDestination,
  type TempDirDestination,
} from '../../test/support/destinations.ts';
import { makeProjectWithServer, makeTeam } from '../../test/support/factories.ts';
import { startTestServer, type TestServer } from '../../test/support/server.ts';

// Issue 30 item 5 ("Lean"): every delivery lane used to end with a job claim that found nothing,
// and every new upload woke the delivery lane although its jobs wait for its processing. A claim
// that finds nothing costs the embedded database about as much as one that finds a job, and
// with 5 MB pictures such claims were about a quarter of its CPU per GB (bench/README.md).

/** Counts claimJob statements (found a job / found none) through a Kysely plugin. */
class ClaimCounter implements KyselyPlugin {
  found = 0;
  empty = 0;
  private readonly claims = new WeakSet<object>();
  transformQuery({ node, queryId }: PluginTransformQueryArgs): RootOperationNode {
    const text = JSON.stringify(node);
    if (text.includes('with recursive running as') && text.includes('locked_by')) this.claims.add(queryId);
    return node;
  }
  async transformResult({ result, queryId }: PluginTransformResultArgs) {
    if (this.claims.has(queryId)) {
      if (result.rows.length > 0) this.found++;
      else this.empty++;
    }
    return result;
  }
}

const counter = new ClaimCounter();
let server: TestServer;
let destination: TempDirDestination;
before(async () => {
  destination = await startFtpDestination();
  // No timer claims during the test: only wake-ups and the lanes themselves.
  server = await startTestServer(
    { ALLOW_PRIVATE_NETWORKS: '1' },
    { pollMs: 600_000, wrapDb: (db) => db.withPlugin(counter) },
  );
});
after(async () => {
  await server.stop();
  await destination.close();
});

test('uploads one after another: each delivery claims its job without claims that find nothing', async () => {
  const team = await makeTeam(server, 'Claims');
  const { account, projectId } = await makeProjectWithServer(server, team, 'Claimed', {
    port: destination.port,
    username: destinationUser.username,
    password: destinationUser.password,
  });
  const db = server.running.ctx.db;
  const files = 5;
  // The start's own claims (the lanes look once) are not the uploads'.
  await new Promise((resolve) => setTimeout(resolve, 500));
  const before = { found: counter.found, empty: counter.empty };
  for (let i = 0; i < files; i++) {
    await ftpUpload(server.running.ingest?.ftpPort, account, `IMG_${i}.JPG`, crypto.randomBytes(20_000));
    for (let waited = 0; ; waited += 20) {
      const done = await db
        .selectFrom('jobs')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('project_id', '=', projectId)
        .where('state', '=', 'succeeded')
        .executeTakeFirstOrThrow();
      if (Number(done.n) === i + 1) break;
      assert.ok(waited < 20_000, `file ${i} not delivered`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
  await new Promise((resolve) => setTimeout(resolve, 300));
  const found = counter.found - before.found;
  const empty = counter.empty - before.empty;
  assert.equal(found, files, 'one claim per job');
  // Before: about 3 empty claims per upload (the upload's wake-up, the lane started beside the
  // one that took the job, and the taking lane once its delivery ended).
  assert.ok(empty <= 1, `${empty} claims found nothing for ${files} uploads`);
});
