import fs from 'node:fs';
import path from 'node:path';

/**
 * DATA_DIR holds the database, mails with live links, keys and every picture: this process
 * creates its files for its own user only (0700 folders, 0600 files), whatever umask it was
 * started with (with 0000 everything was world-writable), and the folder itself is closed to
 * others, which also covers files an older version created. Child processes inherit the umask.
 */
export function secureDataDir(dataDir: string) {
  process.umask(0o077);
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  fs.chmodSync(dataDir, 0o700);
}

/**
 * Takes group and other rights off everything under `dir`. PGlite writes the files of a new
 * cluster with the modes of its packed template (0666) regardless of the umask: the database
 * folder (about 1,000 files, a few ms) is walked at every start.
 */
export function restrictToOwner(dir: string) {
  const walk = (at: string) => {
    const stat = fs.lstatSync(at);
    if (stat.isSymbolicLink()) return;
    if ((stat.mode & 0o077) !== 0) fs.chmodSync(at, stat.mode & 0o700);
    if (stat.isDirectory()) for (const name of fs.readdirSync(at)) walk(path.join(at, name));
  };
  if (fs.existsSync(dir)) walk(dir);
}
