import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { Agent, setGlobalDispatcher } from 'undici';
import { ftpUpload } from '../../test/support/camera.ts';
import { TestClient } from '../../test/support/client.ts';
import { removeQuietly } from '../../test/support/database.ts';
import { freePort } from '../../test/support/destinations.ts';
import { readImage } from '../../test/support/metadata.ts';
import { emptyProcessDatabase } from '../../test/support/prepared-data.ts';
import { type ServerProcess, serverProcess } from '../../test/support/process.ts';

// Issue 30 item 1: the production set-up — the built server behind the repository's Caddy
// configuration over HTTPS (Caddy's internal CA here, ACME in production), cameras direct — and
// the ingest reachable directly. Needs Debian's caddy.
const repoRoot = path.resolve(import.meta.dirname, '../../../..');
const deploy = path.join(repoRoot, 'deploy');

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'photorelay-https-'));
let server: ServerProcess;
let caddy: ChildProcess;
let caddyOutput = '';
let httpsUrl = '';
let database: { url?: string; drop(): Promise<void> } | undefined;

before(async () => {
  const httpsPort = await freePort();
  const httpPort = await freePort();
  httpsUrl = `https://localhost:${httpsPort}`;
  database = await emptyProcessDatabase();
  server = await serverProcess({
    databaseUrl: database.url,
    dataDir: path.join(work, 'data'),
    startTimeoutMs: 180_000,
    env: {
      PUBLIC_URL: httpsUrl,
      TRUST_PROXY: 'loopback',
      SEED_DEMO: '1',
      // Cameras still reach the ingest directly.
      INGEST_HOST: '127.0.0.1',
    },
  });
  await server.start();

  // The repository's site block, with test-only global options: Caddy's own CA, no admin API,
  // its state in our temp folder.
  const caddyfile = path.join(work, 'Caddyfile');
  fs.writeFileSync(
    caddyfile,
    [
      '{',
      '\tadmin off',
      '\tlocal_certs',
      '\tskip_install_trust',
      '\tauto_https disable_redirects',
      `\thttp_port ${httpPort}`,
      `\thttps_port ${httpsPort}`,
      `\tstorage file_system ${path.join(work, 'caddy')}`,
      '}',
      `import ${path.join(deploy, 'Caddyfile')}`,
      '',
    ].join('\n'),
  );
  caddy = spawn('caddy', ['run', '--config', caddyfile, '--adapter', 'caddyfile'], {
    env: {
      ...process.env,
      HOME: work,
      XDG_DATA_HOME: path.join(work, 'xdg'),
      PHOTORELAY_DOMAIN: `localhost:${httpsPort}`,
      PHOTORELAY_UPSTREAM: `127.0.0.1:${server.port}`,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  caddy.stdout?.on('data', (d: Buffer) => (caddyOutput += d));
  caddy.stderr?.on('data', (d: Buffer) => (caddyOutput += d));
  caddy.once('error', (err) => (caddyOutput += `\n${err.message}`));

  // Trust Caddy's internal root, made at its first start.
  const root = path.join(work, 'caddy/pki/authorities/local/root.crt');
  for (let i = 0; i < 300 && !fs.existsSync(root); i++) await new Promise((r) => setTimeout(r, 100));
  assert.ok(fs.existsSync(root), `caddy made no CA:\n${caddyOutput}`);
  setGlobalDispatcher(new Agent({ connect: { ca: fs.readFileSync(root, 'utf8') } }));
  for (let i = 0; i < 100; i++) {
    const ok = await fetch(`${httpsUrl}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  assert.fail(`no https answer through caddy:\n${caddyOutput}\n${server.output()}`);
});

after(async () => {
  caddy?.kill('SIGTERM');
  await server?.stop();
  await database?.drop();
  removeQuietly(work);
});

test('login, a project and an upload’s job log over https through the proxy', async () => {
  const health = await fetch(`${httpsUrl}/api/health`);
  assert.match(health.headers.get('strict-transport-security') ?? '', /max-age=\d{7,}/, 'HSTS');

  // The demo team is made just after the server starts listening.
  const loginFile = path.join(server.dataDir, 'demo-login.txt');
  for (let i = 0; i < 300 && !fs.existsSync(loginFile); i++) await new Promise((r) => setTimeout(r, 100));
  const password = fs.readFileSync(loginFile, 'utf8').trim();
  const client = new TestClient(httpsUrl);
  // The Origin check sees the browser's https origin through the proxy (TRUST_PROXY).
  const login = await client.post('/api/user/login', { email: 'demo@photorelay.local', password });
  assert.equal(login.status, 200, JSON.stringify(login.body));
  const cookie = login.headers.getSetCookie().join('\n');
  assert.match(cookie, /; Secure/i, 'the session cookie is Secure');
  assert.match(cookie, /HttpOnly/i);

  const forged = await new TestClient(httpsUrl).request(
    'POST',
    '/api/user/login',
    { email: 'demo@photorelay.local', password },
    { origin: 'https://evil.example' },
  );
  assert.equal(forged.status, 403, 'a foreign Origin is still refused behind the proxy');

  const me = await client.get<{ currentTeam: string }>('/api/user/info');
  const team = me.body.currentTeam;
  const folders = await client.get<{
    folders: Array<{ id: number; folderType: string | null; isRoot: boolean }>;
  }>(`/api/${team}/folders`);
  const projectsRoot = folders.body.folders.find((f) => f.isRoot && f.folderType === 'projects');
  assert.ok(projectsRoot, JSON.stringify(folders.body));
  const created = await client.post<{ projectId: number }>(`/api/${team}/project`, {
    name: 'Through the proxy',
    parentFolderId: projectsRoot.id,
  });
  assert.equal(created.status, 200, JSON.stringify(created.body));
  const projectId = created.body.projectId;
  const project = await client.get<{
    project: { ftpAccounts: Array<{ username: string; password: string }> };
  }>(`/api/${team}/project/${projectId}`);

  // The camera uploads over FTP straight to PhotoRelay; the desk watches the job log over https
  // (the web app polls this call).
  await ftpUpload(
    server.ftpPort,
    project.body.project.ftpAccounts[0],
    'proxy.jpg',
    readImage('exiftool-IPTC.jpg'),
  );
  let seen: unknown;
  for (let i = 0; i < 100; i++) {
    const recent = await client.get<{ uploads: Array<{ filename: string }> }>(
      `/api/${team}/uploads/recent?since=${encodeURIComponent(new Date(Date.now() - 3600_000).toISOString())}`,
    );
    seen = recent.body;
    if (recent.body.uploads?.some((u) => u.filename === 'proxy.jpg')) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  assert.match(JSON.stringify(seen), /proxy\.jpg/);

  // Metrics are never served through the proxy.
  assert.equal((await fetch(`${httpsUrl}/api/metrics`)).status, 404);
  assert.equal((await fetch(`${server.url}/api/metrics`)).status, 200, 'but on the loopback port');
});
