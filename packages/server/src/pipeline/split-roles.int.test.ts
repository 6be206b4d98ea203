import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { ftpUpload } from '../../test/support/camera.ts';
import { runCommand } from '../../test/support/commands.ts';
import { testBackend } from '../../test/support/database.ts';
import { startFtpDestination, type TempDirDestination } from '../../test/support/destinations.ts';
import { makeProjectWithServer, makeTeam } from '../../test/support/factories.ts';
import { startTestServer, type TestServer } from '../../test/support/server.ts';

// Split roles share PostgreSQL (PGlite's process belongs to the one server that opened it), so
// these run in the PostgreSQL pass only. The worker looks for work only once an hour here: what
// it does, it does because the other processes' wake-ups reached it through PostgreSQL.
if (testBackend() === 'postgres') {
  describe('split roles on one PostgreSQL: web, ingest and worker in separate servers', () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'photorelay-split-'));
    const env = { ALLOW_PRIVATE_NETWORKS: '1' };
    let web: TestServer;
    let ingest: TestServer;
    let worker: TestServer;
    let destination: TempDirDestination;

    before(async () => {
      destination = await startFtpDestination();
      web = await startTestServer(env, { role: 'web', dataDir });
      ingest = await startTestServer(env, { role: 'ingest', dataDir });
      worker = await startTestServer(env, { role: 'worker', dataDir, pollMs: 3_600_000 });
    });
    after(async () => {
      await Promise.all([web.stop(), ingest.stop(), worker.stop()]);
      await destination.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    });

    async function sendPicture(account: { username: string; password: string } | undefined, name: string) {
      const picture = crypto.randomBytes(20_000);
      await ftpUpload(ingest.running.ingest?.ftpPort, account, name, picture);
      return picture;
    }

    async function waitDelivered(name: string): Promise<Buffer | null> {
      const deadline = Date.now() + 10_000;
      for (;;) {
        const delivered = destination.read(`split/${name}`);
        if (delivered || Date.now() > deadline) return delivered;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    }

    async function splitProject(name: string) {
      const team = await makeTeam(web);
      const { account } = await makeProjectWithServer(web, team, name, {
        port: destination.port,
        username: destination.username,
        password: destination.password,
        path: 'split',
      });
      return account;
    }

    test("a camera's upload to the ingest process is delivered by the worker process at once", async () => {
      const account = await splitProject('Split');
      const picture = await sendPicture(account, 'IMG_1.JPG');
      const delivered = await waitDelivered('IMG_1.JPG');
      assert.ok(delivered, 'delivered within 10 s (the worker would look again only in an hour)');
      assert.ok(delivered.equals(picture));
    });

    test('the worker listens again after its connection to PostgreSQL was cut', async () => {
      const account = await splitProject('Reconnect');
      const cut = await sql<{ cut: boolean }>`
        select pg_terminate_backend(pid) as cut from pg_stat_activity
        where datname = current_database() and query ilike 'listen photorelay_wake%'`.execute(
        web.running.ctx.db,
      );
      assert.ok(cut.rows.length >= 1 && cut.rows.every((r) => r.cut));
      // It reconnects after a second; a wake-up before that is lost (the hourly look would find it).
      await new Promise((resolve) => setTimeout(resolve, 2000));
      const picture = await sendPicture(account, 'IMG_2.JPG');
      const delivered = await waitDelivered('IMG_2.JPG');
      assert.ok(delivered?.equals(picture), 'delivered after the listener came back');
    });

    test('a Test click in the web process is answered by the worker process', async () => {
      const team = await makeTeam(web);
      const outcome = await runCommand(team.owner.client, team.teamUuid, 'testftpserver', {
        host: '127.0.0.1',
        port: destination.port,
        username: destination.username,
        password: destination.password,
        protocol: 'ftp',
      });
      assert.deepEqual(outcome, { state: 'ok', detail: 'Success!!!' });
    });
  });
}
