import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { promisify } from 'node:util';
import { buildServer } from '../../../../scripts/build-server.mjs';
import { ftpUpload } from '../../test/support/camera.ts';
import type { TestClient } from '../../test/support/client.ts';
import { removeQuietly } from '../../test/support/database.ts';
import { destinationUser, startFtpDestination } from '../../test/support/destinations.ts';
import { readImage } from '../../test/support/metadata.ts';
import { emptyProcessDatabase } from '../../test/support/prepared-data.ts';
import { type ServerProcess, serverProcess } from '../../test/support/process.ts';

// Issue 30 item 2: one command backs the relay up while it receives, one restores it into an
// empty data directory; the restored instance has every acknowledged upload, its jobs, the
// project, its template, the calendar entry, and delivers a waiting job with the stored password.
// On the embedded database (the backup asks the running server for its files) and, on the
// PostgreSQL pass, with pg_dump and pg_restore into an empty database.
const run = promisify(execFile);
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'photorelay-backup-'));
const servers: ServerProcess[] = [];
const databases: Array<{ drop(): Promise<void> }> = [];
after(async () => {
  for (const s of servers) await s.stop();
  for (const d of databases) await d.drop();
  removeQuietly(work);
});

async function demoLogin(server: ServerProcess): Promise<TestClient> {
  const file = path.join(server.dataDir, 'demo-login.txt');
  for (let i = 0; i < 300 && !fs.existsSync(file); i++) await new Promise((r) => setTimeout(r, 100));
  return server.login('demo@photorelay.local', fs.readFileSync(file, 'utf8').trim());
}

/** `main.mjs backup|restore DIR` as an operator runs it, on the data directory `dataDir`. */
async function photorelay(
  command: 'backup' | 'restore',
  folder: string,
  dataDir: string,
  databaseUrl?: string,
) {
  const entry = await buildServer({ onlyIfStale: true });
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir };
  delete env.DATABASE_URL;
  delete env.NODE_OPTIONS;
  if (databaseUrl) env.DATABASE_URL = databaseUrl;
  return run(process.execPath, [entry, command, folder], { env, timeout: 120_000 });
}

test('a backup taken during an upload stream restores into an empty data directory and delivers', async () => {
  const destination = await startFtpDestination({ started: false });
  const [originalDb, restoredDb] = [await emptyProcessDatabase(), await emptyProcessDatabase()];
  databases.push(originalDb, restoredDb);
  const original = await serverProcess({
    dataDir: path.join(work, 'original'),
    databaseUrl: originalDb.url,
    env: { SEED_DEMO: '1' },
    startTimeoutMs: 180_000,
  });
  servers.push(original);
  await original.start();
  const owner = await demoLogin(original);
  const team = (await owner.get<{ currentTeam: string }>('/api/user/info')).body.currentTeam;
  const api = `/api/${team}`;
  const roots = (
    await owner.get<{ folders: Array<{ id: number; folderType: string | null; isRoot: boolean }> }>(
      `${api}/folders`,
    )
  ).body.folders.filter((f) => f.isRoot);
  const root = (type: string) => roots.find((f) => f.folderType === type)?.id;
  const project = await owner.post<{ projectId: number }>(`${api}/project`, {
    name: 'Backed up',
    parentFolderId: root('projects'),
  });
  const projectId = project.body.projectId;
  // The destination is down while the original runs: its jobs wait, to be delivered after the restore.
  const ftpServer = await owner.post<{ ftpserverid: number }>(`${api}/ftpserver`, {
    name: 'Client FTP',
    host: '127.0.0.1',
    port: destination.port,
    protocol: 'ftp',
    username: destinationUser.username,
    password: destinationUser.password,
    parentFolderId: root('ftpservers'),
  });
  await owner.post(`${api}/project/${projectId}/ftpserver/${ftpServer.body.ftpserverid}`);
  assert.equal(
    (await owner.put(`${api}/project/${projectId}/xmpvalue/headline`, { value: 'Restored headline' })).status,
    200,
  );
  assert.equal(
    (await owner.put(`${api}/project/${projectId}/xmpvaluemode/headline/mode/replace`)).status,
    200,
  );
  const calendars = await owner.get<{ calendars: Array<{ dbcalendarid: number; type: string }> }>(
    `${api}/calendars`,
  );
  const entry = await owner.post<{ calendarentryid: number }>(
    `${api}/calendar/${calendars.body.calendars.find((c) => c.type === 'default')?.dbcalendarid}/entry`,
    {
      startdatetime: '2026-12-05T15:30:00+01:00',
      category: 'sport',
      subcategory: 'football',
      scene: 'Bundesliga',
      team1: 'Backup FC',
      team2: 'Restore United',
      city: 'München',
      country: 'Deutschland',
    },
  );
  assert.equal(entry.status, 200, JSON.stringify(entry.body));
  const account = (
    await owner.get<{ project: { ftpAccounts: Array<{ username: string; password: string }> } }>(
      `${api}/project/${projectId}`,
    )
  ).body.project.ftpAccounts[0];

  // A camera keeps sending while the backup runs.
  const picture = readImage('exiftool-IPTC.jpg');
  const acknowledged: string[] = [];
  let sending = true;
  const camera = (async () => {
    for (let i = 0; sending && i < 500; i++) {
      // A camera that got no 226 sends the picture again later: only acknowledged ones count.
      const sent = await ftpUpload(original.ftpPort, account, `stream-${i}.jpg`, picture).then(
        () => true,
        () => false,
      );
      if (sent) acknowledged.push(`stream-${i}.jpg`);
    }
  })();
  while (acknowledged.length < 5) await new Promise((r) => setTimeout(r, 50));
  const beforeBackup = [...acknowledged];
  const backupDir = path.join(work, 'backup');
  const made = await photorelay('backup', backupDir, original.dataDir, originalDb.url);
  assert.match(
    made.stdout,
    originalDb.url
      ? /\(postgresql database\) written/
      : /Backup of PhotoRelay .* \(embedded database\) written/,
  );
  while (acknowledged.length < beforeBackup.length + 2) await new Promise((r) => setTimeout(r, 50));
  sending = false;
  await camera;
  assert.ok(acknowledged.length > beforeBackup.length, 'uploads went on during the backup');
  await original.stop();

  // A second restore over a used data directory is refused and changes nothing.
  const restoredDir = path.join(work, 'restored');
  await photorelay('restore', backupDir, restoredDir, restoredDb.url);
  const again = await photorelay('restore', backupDir, restoredDir, restoredDb.url).then(
    () => 'accepted',
    (err: { stderr: string }) => err.stderr,
  );
  assert.match(again, /is in use/);

  const restored = await serverProcess({
    dataDir: restoredDir,
    databaseUrl: restoredDb.url,
    startTimeoutMs: 180_000,
  });
  servers.push(restored);
  await restored.start();
  const owner2 = await demoLogin(restored); // the same password: users and the demo file came back
  const recent = await owner2.get<{ uploads: Array<{ filename: string }> }>(
    `${api}/uploads/recent?since=${encodeURIComponent(new Date(Date.now() - 3600_000).toISOString())}&limit=200`,
  );
  const names = new Set(recent.body.uploads.map((u) => u.filename));
  for (const name of beforeBackup)
    assert.ok(names.has(name), `${name} acknowledged before the backup is there`);
  const values = await owner2.get(`${api}/project/${projectId}/xmpvalues`);
  assert.match(JSON.stringify(values.body), /Restored headline/);
  const restoredEntry = await owner2.get(`${api}/calendarentry/${entry.body.calendarentryid}`);
  assert.match(JSON.stringify(restoredEntry.body), /Backup FC/);

  // The destination is up now: a waiting job is delivered, logging in with the stored password
  // (decrypted with the restored secret key), stamped with the template's headline.
  await destination.start();
  const jobs = await owner2.post<{ jobs: Array<{ id: number; filename?: string }> }>(`${api}/jobs/100/0`, {
    projectid: projectId,
  });
  assert.ok(jobs.body.jobs.length >= beforeBackup.length, JSON.stringify(jobs.body));
  for (const job of jobs.body.jobs) await owner2.post(`${api}/job/${job.id}/retry`);
  let delivered: string[] = [];
  const allThere = () => beforeBackup.every((name) => delivered.some((f) => f.endsWith(name)));
  for (let i = 0; i < 300 && !allThere(); i++) {
    delivered = destination.files();
    await new Promise((r) => setTimeout(r, 200));
  }
  const states = await owner2.post(`${api}/jobs/100/0`, { projectid: projectId });
  assert.ok(
    allThere(),
    `delivered ${JSON.stringify(delivered)}; jobs ${JSON.stringify(states.body).slice(0, 2000)}`,
  );
  const sent = destination.read(delivered.find((f) => f.endsWith(beforeBackup[0])) ?? '');
  assert.ok(sent?.includes(Buffer.from('Restored headline')), 'stamped with the restored template');
  await destination.close();
});
