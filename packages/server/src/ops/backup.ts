import { execFile } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Config } from '../config.ts';
import { settingNames } from '../config.ts';
import { restoreEmbeddedDatabase, startEmbeddedDatabase } from '../db/embedded-database.ts';
import { controlSocketPath } from './control-socket.ts';

// Backup and restore (README "Backup and restore"). A backup is a folder:
//   manifest.json            what it holds, made by which version
//   database/                the embedded database (PGlite's files, copied between two statements)
//   database.pgdump          or PostgreSQL's pg_dump (custom format, one snapshot)
//   files/                   DATA_DIR/files (pictures; spliced blobs keep their hard links)
//   keys/                    secret.key, ssh/ host keys, ftps-selfsigned.pem, demo-login.txt
//   settings.env             the PhotoRelay settings the backup was made with
// The database is copied first, then the files: every row then finds its file (files are
// written before their row and never changed), and a file newer than the dump is an orphan
// the start-up sweep removes.

const run = promisify(execFile);
const keyEntries = ['secret.key', 'ssh', 'ftps-selfsigned.pem', 'demo-login.txt'];

export interface Manifest {
  format: 1;
  version: string;
  createdAt: string;
  database: 'embedded' | 'postgresql';
}

export class BackupError extends Error {}

export async function backup(config: Config, to: string, version: string): Promise<Manifest> {
  const target = path.resolve(to);
  if (fs.existsSync(target) && fs.readdirSync(target).length > 0)
    throw new BackupError(`${target} is not empty: give a new folder for the backup`);
  fs.mkdirSync(target, { recursive: true, mode: 0o700 });
  const dataDir = path.resolve(config.DATA_DIR);

  const manifest: Manifest = {
    format: 1,
    version,
    createdAt: new Date().toISOString(),
    database: config.DATABASE_URL ? 'postgresql' : 'embedded',
  };
  if (config.DATABASE_URL) {
    await run('pg_dump', [
      '--format=custom',
      '--no-owner',
      '--file',
      path.join(target, 'database.pgdump'),
      config.DATABASE_URL,
    ]).catch((err: Error & { stderr?: string }) => {
      throw new BackupError(`pg_dump failed: ${err.stderr?.trim() || err.message}`);
    });
  } else {
    await dumpEmbedded(dataDir, path.join(target, 'database'));
  }

  const files = path.join(dataDir, 'files');
  if (fs.existsSync(files)) await copyTree(files, path.join(target, 'files'), ['tmp']);
  fs.mkdirSync(path.join(target, 'keys'), { mode: 0o700 });
  for (const entry of keyEntries) {
    const from = path.join(dataDir, entry);
    if (fs.existsSync(from)) await copyTree(from, path.join(target, 'keys', entry));
  }
  fs.writeFileSync(path.join(target, 'settings.env'), currentSettings(), { mode: 0o600 });
  fs.writeFileSync(path.join(target, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`, {
    mode: 0o600,
  });
  return manifest;
}

export async function restore(config: Config, from: string): Promise<Manifest> {
  const source = path.resolve(from);
  const manifestFile = path.join(source, 'manifest.json');
  if (!fs.existsSync(manifestFile))
    throw new BackupError(`${source} holds no PhotoRelay backup (manifest.json)`);
  const manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as Manifest;
  if (manifest.format !== 1)
    throw new BackupError(`backup format ${manifest.format} is not known to this version`);
  const wanted = config.DATABASE_URL ? 'postgresql' : 'embedded';
  if (manifest.database !== wanted)
    throw new BackupError(
      manifest.database === 'postgresql'
        ? 'this backup is of a PostgreSQL database: set DATABASE_URL to an empty database to restore it'
        : 'this backup is of the embedded database: unset DATABASE_URL to restore it',
    );
  const dataDir = path.resolve(config.DATA_DIR);
  // A secret.key alone is the one loading the settings just made for the empty folder: the
  // backup's replaces it. Anything else means the folder is some instance's data.
  const taken = ['db', 'files', ...keyEntries]
    .filter((entry) => entry !== 'secret.key')
    .filter((entry) => fs.existsSync(path.join(dataDir, entry)));
  if (taken.length)
    throw new BackupError(`${dataDir} is in use (${taken.join(', ')}): restore into an empty DATA_DIR`);
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });

  if (config.DATABASE_URL) {
    await run('pg_restore', [
      '--no-owner',
      '--no-privileges',
      '--exit-on-error',
      '--single-transaction',
      '--dbname',
      config.DATABASE_URL,
      path.join(source, 'database.pgdump'),
    ]).catch((err: Error & { stderr?: string }) => {
      throw new BackupError(
        `pg_restore failed (the database must be empty): ${err.stderr?.trim() || err.message}`,
      );
    });
  } else {
    restoreEmbeddedDatabase(path.join(dataDir, 'db'), path.join(source, 'database'));
  }
  if (fs.existsSync(path.join(source, 'files')))
    await copyTree(path.join(source, 'files'), path.join(dataDir, 'files'));
  for (const entry of keyEntries) {
    const saved = path.join(source, 'keys', entry);
    if (!fs.existsSync(saved)) continue;
    fs.rmSync(path.join(dataDir, entry), { recursive: true, force: true });
    await copyTree(saved, path.join(dataDir, entry));
  }
  return manifest;
}

/** The embedded database: asked of the running server (it owns the files), else opened here. */
async function dumpEmbedded(dataDir: string, dir: string) {
  const asked = await askRunningServer(controlSocketPath(dataDir), `dump ${dir}`);
  if (asked === 'ok') return;
  if (asked !== null) throw new BackupError(`the running server could not dump its database: ${asked}`);
  const dbDir = path.join(dataDir, 'db');
  if (!fs.existsSync(path.join(dbDir, 'PG_VERSION'))) throw new BackupError(`no database in ${dbDir}`);
  const db = await startEmbeddedDatabase(dbDir);
  try {
    await db.dump(dir);
  } finally {
    await db.close();
  }
}

/** One request on the control socket: its answer, or null when no server listens there. */
function askRunningServer(socketPath: string, request: string): Promise<string | null> {
  return new Promise((resolve) => {
    if (!fs.existsSync(socketPath)) return resolve(null);
    const socket = net.connect(socketPath);
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('connect', () => socket.write(`${request}\n`));
    socket.on('data', (chunk: string) => {
      answer += chunk;
    });
    socket.on('end', () => resolve(answer.trim()));
    // A socket file left by a server that is gone: nobody listens.
    socket.on('error', (err: NodeJS.ErrnoException) =>
      resolve(err.code === 'ECONNREFUSED' || err.code === 'ENOENT' ? null : err.message),
    );
  });
}

/** `cp -a`: keeps modes, times and the hard links between spliced blobs and received files. */
async function copyTree(from: string, to: string, skip: string[] = []) {
  if (skip.length === 0 || !fs.statSync(from).isDirectory()) {
    await run('cp', ['-a', from, to]);
    return;
  }
  fs.mkdirSync(to, { recursive: true, mode: 0o700 });
  const entries = fs.readdirSync(from).filter((name) => !skip.includes(name));
  // One cp for all entries, so that hard links between them stay links in the copy.
  if (entries.length) await run('cp', ['-a', ...entries.map((name) => path.join(from, name)), to]);
}

/** The PhotoRelay settings of this process's environment, as an env file. */
function currentSettings(): string {
  const lines = settingNames
    .filter((name) => process.env[name] !== undefined)
    .map((name) => `${name}=${JSON.stringify(process.env[name])}`);
  return `# PhotoRelay settings when this backup was made (review before use)\n${lines.join('\n')}\n`;
}
