import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { promisify } from 'node:util';
import { ftpUpload } from '../../test/support/camera.ts';
import type { TestClient } from '../../test/support/client.ts';
import { removeQuietly } from '../../test/support/database.ts';
import { readImage } from '../../test/support/metadata.ts';
import { emptyProcessDatabase } from '../../test/support/prepared-data.ts';
import { type ServerProcess, serverProcess } from '../../test/support/process.ts';

// Issue 30 item 3: a data directory made by the previous release starts on this one. The
// previous release's code is taken from git (CHANGELOG.md names each release's commit; the tag
// may not travel with a clone, the commit does), run from its sources on the same
// node_modules, then this release's bundle starts on the same DATA_DIR.
const previousRelease = { version: '0.15.0', commit: 'fcd98421ed62f38e428fa9b1d4409cde07461175' };
const run = promisify(execFile);
const repoRoot = path.resolve(import.meta.dirname, '../../../..');
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'photorelay-upgrade-'));
const servers: ServerProcess[] = [];
const databases: Array<{ drop(): Promise<void> }> = [];
after(async () => {
  for (const s of servers) await s.stop();
  for (const d of databases) await d.drop();
  removeQuietly(work);
});

/** The previous release's tree, with a node_modules of links: npm packages from ours, its own workspaces. */
async function checkOutPreviousRelease(): Promise<string> {
  const commit = (
    await run('git', ['rev-parse', '--verify', `${previousRelease.commit}^{commit}`], { cwd: repoRoot })
  ).stdout.trim();
  const tree = path.join(work, `photorelay-${previousRelease.version}`);
  fs.mkdirSync(tree);
  const archive = path.join(work, 'previous.tar');
  await run(
    'git',
    ['archive', '--format=tar', '-o', archive, commit, 'package.json', 'packages', 'scripts'],
    {
      cwd: repoRoot,
    },
  );
  await run('tar', ['-xf', archive, '-C', tree]);
  const modules = path.join(tree, 'node_modules');
  fs.mkdirSync(path.join(modules, '@photorelay'), { recursive: true });
  for (const name of fs.readdirSync(path.join(repoRoot, 'node_modules'))) {
    if (name === '@photorelay' || name === '.bin') continue;
    fs.symlinkSync(path.join(repoRoot, 'node_modules', name), path.join(modules, name));
  }
  for (const name of ['contract', 'xmp', 'server'])
    fs.symlinkSync(path.join(tree, 'packages', name), path.join(modules, '@photorelay', name));
  return tree;
}

async function demoLogin(server: ServerProcess): Promise<TestClient> {
  const file = path.join(server.dataDir, 'demo-login.txt');
  for (let i = 0; i < 300 && !fs.existsSync(file); i++) await new Promise((r) => setTimeout(r, 100));
  return server.login('demo@photorelay.local', fs.readFileSync(file, 'utf8').trim());
}

test(`a data directory of release ${previousRelease.version} starts on this release with its data`, async () => {
  const tree = await checkOutPreviousRelease();
  const dataDir = path.join(work, 'data');
  const database = await emptyProcessDatabase(); // PostgreSQL on that pass, else PGlite in DATA_DIR
  databases.push(database);
  const old = await serverProcess({
    dataDir,
    databaseUrl: database.url,
    env: { SEED_DEMO: '1' },
    fromSource: true,
    startTimeoutMs: 180_000,
    root: tree,
  });
  servers.push(old);
  await old.start();
  const owner = await demoLogin(old);
  const team = (await owner.get<{ currentTeam: string }>('/api/user/info')).body.currentTeam;
  const api = `/api/${team}`;
  const roots = (
    await owner.get<{ folders: Array<{ id: number; folderType: string | null; isRoot: boolean }> }>(
      `${api}/folders`,
    )
  ).body.folders;
  const created = await owner.post<{ projectId: number }>(`${api}/project`, {
    name: 'Made by the previous release',
    parentFolderId: roots.find((f) => f.isRoot && f.folderType === 'projects')?.id,
  });
  const projectId = created.body.projectId;
  const account = (
    await owner.get<{ project: { ftpAccounts: Array<{ username: string; password: string }> } }>(
      `${api}/project/${projectId}`,
    )
  ).body.project.ftpAccounts[0];
  await ftpUpload(old.ftpPort, account, 'before-upgrade.jpg', readImage('exiftool-IPTC.jpg'));
  await old.stop();

  // This release on the same data directory (twice: the migrations run once, the second start
  // has nothing to do).
  for (let start = 0; start < 2; start++) {
    const current = await serverProcess({ dataDir, databaseUrl: database.url, startTimeoutMs: 180_000 });
    servers.push(current);
    await current.start();
    const again = await demoLogin(current);
    const project = await again.get<{ project: { name: string; ftpAccounts: Array<{ username: string }> } }>(
      `${api}/project/${projectId}`,
    );
    assert.equal(project.body.project.name, 'Made by the previous release');
    assert.equal(project.body.project.ftpAccounts[0]?.username, account.username);
    const recent = await again.get(
      `${api}/uploads/recent?since=${encodeURIComponent(new Date(Date.now() - 3600_000).toISOString())}`,
    );
    assert.match(JSON.stringify(recent.body), /before-upgrade\.jpg/);
    // The project's FTP account still logs in (its password is sealed with the kept key).
    await ftpUpload(current.ftpPort, account, `after-upgrade-${start}.jpg`, readImage('exiftool-IPTC.jpg'));
    assert.ok(current.output().match(/Database upgrade failed/) === null, current.output());
    await current.stop();
  }
});
