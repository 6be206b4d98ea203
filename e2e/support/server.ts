// Starts the real PhotoRelay server for a test file: a free port, a fresh temporary DATA_DIR,
// no demo data. The server serves the built web app (packages/web/dist) from the same origin.
//
// E2E_BASE_URL + E2E_DATA_DIR run the tests against an instance that is already running
// (e.g. `vite preview` in front of a dev server) instead of starting one.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { buildServer } from '../../scripts/build-server.mjs';
import { firstLink, type Mail, readMails, waitForMail } from './mail.ts';

export const repoRoot = path.resolve(import.meta.dirname, '../..');
const webDir = path.join(repoRoot, 'packages/web');

export type TestServer = {
  url: string;
  dataDir: string;
  mails: () => Promise<Mail[]>;
  waitForMail: (
    to: string,
    options?: { subject?: RegExp; timeoutMs?: number; ignore?: Set<string> },
  ) => Promise<Mail>;
  /** The first link of the newest mail to `to` matching `subject`. */
  linkFromMail: (to: string, subject?: RegExp) => Promise<string>;
  /** Last lines the server printed; handy in failure messages. */
  logTail: () => string;
  stop: () => Promise<void>;
};

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.unref();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist' || entry.name.startsWith('.')) continue;
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(full) : fs.statSync(full).mtimeMs);
  }
  return newest;
}

/** Builds packages/web when dist is missing or older than the sources (scripts/test.mjs builds anyway). */
export function ensureWebBuild(): void {
  const index = path.join(webDir, 'dist/index.html');
  const builtAt = fs.existsSync(index) ? fs.statSync(index).mtimeMs : 0;
  const sources = Math.max(newestMtime(webDir), newestMtime(path.join(repoRoot, 'packages/contract')));
  if (builtAt >= sources) return;
  const build = spawnSync(
    process.execPath,
    [path.join(repoRoot, 'node_modules/vite/bin/vite.js'), 'build', webDir],
    {
      cwd: repoRoot,
      stdio: 'inherit',
    },
  );
  if (build.status !== 0) throw new Error('Building the web app failed');
}

async function waitForHealth(
  url: string,
  child: ChildProcess | null,
  logTail: () => string,
  timeoutMs = 90_000,
) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child && child.exitCode !== null) {
      throw new Error(`Server exited with code ${child.exitCode} before it was healthy:\n${logTail()}`);
    }
    try {
      const response = await fetch(`${url}/api/health`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`Server at ${url} not healthy within ${timeoutMs} ms:\n${logTail()}`);
}

function helpers(url: string, dataDir: string, logTail: () => string, stop: () => Promise<void>): TestServer {
  return {
    url,
    dataDir,
    mails: () => readMails(dataDir),
    waitForMail: (to, options) => waitForMail(dataDir, to, options),
    linkFromMail: async (to, subject) => {
      const mail = await waitForMail(dataDir, to, { subject });
      const all = (await readMails(dataDir)).filter(
        (m) => m.to.toLowerCase().includes(to.toLowerCase()) && (!subject || subject.test(m.subject)),
      );
      const newest = all.at(-1) ?? mail;
      const link = firstLink(newest.text);
      if (!link) throw new Error(`Mail '${newest.subject}' to ${to} has no link:\n${newest.text}`);
      return link;
    },
    logTail,
    stop,
  };
}

export async function startServer(env: Record<string, string> = {}): Promise<TestServer> {
  if (process.env.E2E_BASE_URL && process.env.E2E_DATA_DIR) {
    const url = process.env.E2E_BASE_URL.replace(/\/$/, '');
    await waitForHealth(url, null, () => '');
    return helpers(
      url,
      process.env.E2E_DATA_DIR,
      () => '',
      async () => {},
    );
  }

  ensureWebBuild();
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const dataDir = await fsp.mkdtemp(path.join(os.tmpdir(), 'photorelay-e2e-'));
  const lines: string[] = [];
  const logTail = () => lines.slice(-40).join('\n');

  // As `npm start` runs it: the server bundle (rebuilt when its sources changed) with plain node.
  const child = spawn(process.execPath, [await buildServer({ onlyIfStale: true })], {
    cwd: repoRoot,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      SEED_DEMO: '0',
      PUBLIC_URL: url,
      LOG_LEVEL: process.env.E2E_LOG_LEVEL ?? 'warn',
      // Journeys sign in and up many times from one address.
      AUTH_RATE_LIMIT: '1000',
      // Free ingest ports, so a product running on the defaults (2121/2222) does not clash.
      FTP_PORT: String(await freePort()),
      SFTP_PORT: String(await freePort()),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const collect = (chunk: Buffer) => {
    lines.push(...chunk.toString().split('\n').filter(Boolean));
    if (lines.length > 400) lines.splice(0, lines.length - 400);
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);

  const stop = async () => {
    if (child.exitCode === null) {
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    }
    if (!process.env.E2E_KEEP_DATA) await fsp.rm(dataDir, { recursive: true, force: true });
  };

  try {
    await waitForHealth(url, child, logTail);
  } catch (error) {
    await stop();
    throw error;
  }
  return helpers(url, dataDir, logTail, stop);
}

/**
 * A server whose FTP ingest listens on a free port (with its own passive ports), for journeys
 * that send pictures like a camera; private networks allowed, so 127.0.0.1 can be a destination.
 */
export async function startServerWithIngest(): Promise<{ server: TestServer; ftpPort: number }> {
  const ftpPort = await freePort();
  const pasv = 41_000 + Math.floor(Math.random() * 8000);
  const server = await startServer({
    FTP_PORT: String(ftpPort),
    SFTP_PORT: String(await freePort()),
    PASV_PORTS: `${pasv}-${pasv + 40}`,
    ALLOW_PRIVATE_NETWORKS: '1',
  });
  return { server, ftpPort };
}

export { firstLink };
