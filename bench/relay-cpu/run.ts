// Relay cost (issue 30 item 5, "Lean"): what PhotoRelay's process tree spends in CPU per GB it
// relays, and what it holds in memory at rest and after a burst, started as the systemd unit
// starts it (the bundle under plain node, with the unit's Environment= lines and node flags).
//
// The case of the issue: a burst of `--files` camera-like JPEGs (default 50 x 5 MB = 250 MB)
// received over FTP into a project with a 7-field metadata template, delivered to Debian's vsftpd
// (FTP) and OpenSSH's sshd (SFTP). The baseline, in the same run: the same files sent straight
// to vsftpd (basic-ftp, as the cameras) and to sshd (ssh2's fastPut): the destinations' own CPU.
// Needs root (vsftpd and sshd). See ../README.md.
//
//   npx tsx bench/relay-cpu/run.ts [--files 50] [--size-mb 5] [--clients 2] [--rounds 3]
//       [--rest-s 15] [--after-s 60] [--profile DIR] [--node-flags "..."] [--env "K=V K2=V2"]
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Client as FtpClient } from 'basic-ftp';
import { Client as SshClient } from 'ssh2';
import { isTemp, walk } from '../../packages/server/test/support/destinations.ts';
import { startOpenSshd } from '../../packages/server/test/support/openssh.ts';
import { prepareData } from '../../packages/server/test/support/prepared-data.ts';
import { childPids, serverProcess } from '../../packages/server/test/support/process.ts';
import { startVsftpd } from '../../packages/server/test/support/vsftpd.ts';
import { makeFrame, metadataHead, standardTables, writeSyntheticJpeg } from '../stamp/synthetic-jpeg.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '../..');
// The shared sample pictures beside the worktrees (also when this file runs from a copy elsewhere).
const images = [path.resolve(repo, '../../shared/data/images'), '/work/shared/data/images'].find((d) =>
  fs.existsSync(d),
) as string;

const { values: opts } = parseArgs({
  options: {
    files: { type: 'string', default: '50' },
    'size-mb': { type: 'string', default: '5' },
    clients: { type: 'string', default: '2' },
    rounds: { type: 'string', default: '3' },
    /** Idle seconds after the server answers before the resting memory is read. */
    'rest-s': { type: 'string', default: '15' },
    /** Idle seconds after the last burst before the memory is read again. */
    'after-s': { type: 'string', default: '60' },
    /** Writes a V8 CPU profile of the server process into this folder (when it stops). */
    profile: { type: 'string' },
    /** More flags for the server's node (after the unit's). */
    'node-flags': { type: 'string', default: '' },
    /** More environment for the server ("K=V K2=V2"), after the unit's. */
    env: { type: 'string', default: '' },
    /** Ignore the systemd unit's Environment= lines and node flags (to see what they change). */
    'no-unit': { type: 'boolean', default: false },
  },
});
const fileCount = Number(opts.files);
const fileBytes = Number(opts['size-mb']) * 1024 * 1024;
const clientCount = Number(opts.clients);
const rounds = Number(opts.rounds);
const MB = 1024 * 1024;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const log = (text: string) => console.log(text);
const fmt = (n: number, digits = 0) => (Number.isFinite(n) ? n.toFixed(digits) : '-');
const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)] ?? NaN;
const spread = (values: number[], digits = 2) =>
  values.length > 1
    ? `${fmt(median(values), digits)} (${fmt(Math.min(...values), digits)}-${fmt(Math.max(...values), digits)})`
    : fmt(values[0] ?? Number.NaN, digits);

/** The systemd unit's settings for the server: its Environment= lines and the node flags of ExecStart. */
function unitSettings(): { env: Record<string, string>; nodeFlags: string[] } {
  const unit = fs.readFileSync(path.join(repo, 'deploy/photorelay.service'), 'utf8');
  const env: Record<string, string> = {};
  for (const [, pairs] of unit.matchAll(/^Environment=(.*)$/gm))
    for (const pair of (pairs ?? '').split(' ')) {
      const [key, ...value] = pair.split('=');
      if (key && key !== 'NODE_ENV') env[key] = value.join('=');
    }
  const exec = /^ExecStart=\S*node (.*) packages\/server\/dist\/main\.mjs/m.exec(unit)?.[1] ?? '';
  return { env, nodeFlags: exec.split(' ').filter(Boolean) };
}

// ---------------------------------------------------------------------------------------------
// /proc

function stat(pid: number): number[] {
  const text = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  return text
    .slice(text.lastIndexOf(')') + 2)
    .split(' ')
    .map(Number);
}

/** The process and all its descendants alive now. */
function tree(pid: number): number[] {
  return [pid, ...childPids(pid).flatMap(tree)];
}

/**
 * CPU seconds (user + system) of a process tree: every living process's own time plus what its
 * reaped children used (vsftpd and sshd fork a process per session).
 */
function treeCpu(pid: number | undefined): number {
  if (pid === undefined) return 0;
  let sum = 0;
  for (const p of tree(pid)) {
    try {
      const f = stat(p);
      sum += ((f[11] ?? 0) + (f[12] ?? 0) + (f[13] ?? 0) + (f[14] ?? 0)) / 100;
    } catch {
      // gone meanwhile
    }
  }
  return sum;
}

/** CPU seconds (user + system) of one process (all its threads). */
function ownCpu(pid: number | undefined): number {
  if (pid === undefined) return 0;
  try {
    const f = stat(pid);
    return ((f[11] ?? 0) + (f[12] ?? 0)) / 100;
  } catch {
    return 0;
  }
}

/** Memory of a process tree, MB: the RSS of each process, their sum, and the sum of their PSS. */
function treeMemory(pid: number | undefined): { each: string; rss: number; pss: number } {
  if (pid === undefined) return { each: '', rss: 0, pss: 0 };
  const parts: string[] = [];
  let rss = 0;
  let pss = 0;
  for (const p of tree(pid)) {
    try {
      const rollup = fs.readFileSync(`/proc/${p}/smaps_rollup`, 'utf8');
      const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(rollup)?.[1] ?? 0);
      const name = fs.readFileSync(`/proc/${p}/cmdline`, 'utf8').includes('pglite-host') ? 'PGlite' : 'node';
      parts.push(`${name} ${fmt(kb('Rss') / 1024)}`);
      rss += kb('Rss') / 1024;
      pss += kb('Pss') / 1024;
    } catch {
      // gone meanwhile
    }
  }
  return { each: parts.join(' + '), rss, pss };
}

// ---------------------------------------------------------------------------------------------
// Files and clients

async function generateFiles(dir: string): Promise<string[]> {
  const frame = makeFrame(standardTables(fs.readFileSync(path.join(images, 'exiv2-FurnaceCreekInn.jpg'))));
  const heads = ['IPTC-PhotometadataRef-Std2025.1.jpg', 'exiv2-Reagan.jpg', 'exiftool-IPTC.jpg'].map((name) =>
    metadataHead(fs.readFileSync(path.join(images, name))),
  );
  const files: string[] = [];
  for (let i = 0; i < fileCount; i++) {
    const unique = Buffer.concat([Buffer.from([0xff, 0xfe, 0x00, 0x12]), crypto.randomBytes(16)]);
    const file = path.join(dir, `IMG_${String(i).padStart(4, '0')}.JPG`);
    await writeSyntheticJpeg(file, [...(heads[i % heads.length] ?? []), unique], frame, fileBytes);
    files.push(file);
  }
  return files;
}

type Login = { port: number; user: string; password: string };

/**
 * `clientCount` FTP cameras send the files into `dir`, each taking the next when its last is
 * done. `beforeClose` runs while the connections are still open: the server's session processes
 * are alive and counted (once they exit, their time reaches the listener's only when reaped).
 */
async function ftpSend(target: Login, files: string[], dir: string, beforeClose = () => {}): Promise<void> {
  const clients = await Promise.all(
    Array.from({ length: clientCount }, async () => {
      const c = new FtpClient(60_000);
      await c.access({ host: '127.0.0.1', port: target.port, user: target.user, password: target.password });
      await c.ensureDir(dir);
      return c;
    }),
  );
  let next = 0;
  await Promise.all(
    clients.map(async (c) => {
      for (let i = next++; i < files.length; i = next++)
        await c.uploadFrom(files[i] as string, path.basename(files[i] as string));
    }),
  );
  beforeClose();
  for (const c of clients) c.close();
}

/** The same over SFTP with ssh2's fastPut, `clientCount` connections. */
async function sftpSend(target: Login, files: string[], dir: string, beforeClose = () => {}): Promise<void> {
  let next = 0;
  const connections: SshClient[] = [];
  await Promise.all(
    Array.from(
      { length: clientCount },
      () =>
        new Promise<void>((resolve, reject) => {
          const conn = new SshClient();
          connections.push(conn);
          conn.on('error', reject);
          conn.on('ready', () =>
            conn.sftp(async (err, sftp) => {
              if (err) return reject(err);
              try {
                await new Promise<void>((ok) => sftp.mkdir(dir, () => ok()));
                for (let i = next++; i < files.length; i = next++) {
                  const file = files[i] as string;
                  await new Promise<void>((ok, fail) =>
                    sftp.fastPut(file, `${dir}/${path.basename(file)}`, (e) => (e ? fail(e) : ok())),
                  );
                }
                resolve();
              } catch (e) {
                reject(e);
              }
            }),
          );
          conn.connect({
            host: '127.0.0.1',
            port: target.port,
            username: target.user,
            password: target.password,
          });
        }),
    ),
  );
  beforeClose();
  for (const conn of connections) conn.end();
}

async function waitFor(what: string, done: () => boolean, timeoutMs = 600_000) {
  const deadline = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

// ---------------------------------------------------------------------------------------------

async function main() {
  const work = fs.mkdtempSync(path.join(fs.existsSync('/dev/shm') ? '/dev/shm' : os.tmpdir(), 'relay-cpu-'));
  const stops: Array<() => Promise<unknown> | unknown> = [
    () => fs.rmSync(work, { recursive: true, force: true }),
  ];
  try {
    log(
      `machine: ${os.cpus().length} vCPU, Node ${process.version}, load ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}; repo ${repo}`,
    );
    const files = await generateFiles(work);
    const gb = (files.length * fileBytes) / 1024 ** 3;
    const vsftpd = await startVsftpd();
    stops.push(() => vsftpd.stop());
    const sshd = await startOpenSshd();
    stops.push(() => sshd.stop());

    const unit = opts['no-unit'] ? { env: {}, nodeFlags: [] } : unitSettings();
    const extraEnv = Object.fromEntries(
      (opts.env ?? '')
        .split(' ')
        .filter(Boolean)
        .map((p) => [p.slice(0, p.indexOf('=')), p.slice(p.indexOf('=') + 1)]),
    );
    const data = await prepareData();
    stops.push(() => data.remove());
    const nodeArgs = [
      ...unit.nodeFlags,
      ...(opts['node-flags'] ?? '').split(' ').filter(Boolean),
      ...(opts.profile ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(opts.profile)}`] : []),
    ];
    const env = { JOB_LEASE_SECONDS: '60', LOG_LEVEL: 'info', ...unit.env, ...extraEnv };
    const server = await serverProcess({ dataDir: data.dataDir, env, nodeArgs });
    await server.start();
    stops.push(() => server.stop());
    log(
      `server: node ${nodeArgs.join(' ')} dist/main.mjs; env ${JSON.stringify({ ...unit.env, ...extraEnv })}`,
    );
    await fetch(`${server.url}/api/live`);
    await sleep(Number(opts['rest-s']) * 1000);
    const rest = treeMemory(server.pid);

    const owner = await server.login(data.team.email, data.team.password);
    const api = (suffix: string) => `/api/${data.team.teamUuid}${suffix}`;
    const created = await owner.post<{ projectId: number }>(api('/project'), {
      name: 'Relay',
      parentFolderId: data.team.projectsRootId,
    });
    const id = created.body.projectId;
    const destinations = [
      {
        protocol: 'ftp',
        port: vsftpd.port,
        username: vsftpd.username,
        password: vsftpd.password,
        path: 'incoming/relay',
      },
      { protocol: 'sftp', port: sshd.port, username: sshd.username, password: sshd.password, path: 'relay' },
    ];
    for (const d of destinations) {
      const made = await owner.post<{ ftpserverid: number }>(api('/ftpserver'), {
        name: `Relay ${d.protocol}`,
        host: '127.0.0.1',
        parentFolderId: data.team.ftpserversRootId,
        ...d,
      });
      if (made.status !== 200) throw new Error(`ftp server: ${JSON.stringify(made.body)}`);
      await owner.post(api(`/project/${id}/ftpserver/${made.body.ftpserverid}`));
    }
    // The 7-field template.
    const fields: Array<[string, string, string]> = [
      ['headline', 'replace', '{city}: Relay test'],
      ['description', 'append', '(Photo: {byline} / PhotoRelay)'],
      ['creatorNames', 'replace', 'Jane Doe'],
      ['creditLine', 'replace', 'PhotoRelay / Jane Doe'],
      ['copyrightNotice', 'replace', '© 2026 PhotoRelay'],
      ['cityName', 'replace', 'München'],
      ['jobid', 'replace', '{date:YYYYMMDD}-{filenamebase}'],
    ];
    for (const [field, mode, value] of fields) {
      const m = await owner.put(api(`/project/${id}/xmpvaluemode/${field}/mode/${mode}`));
      const v = await owner.put(api(`/project/${id}/xmpvalue/${field}`), { value });
      if (m.status !== 200 || v.status !== 200) throw new Error(`template ${field}: ${m.status} ${v.status}`);
    }
    const project = await owner.get<{
      project: { ftpAccounts: Array<{ username: string; password: string }> };
    }>(api(`/project/${id}`));
    const account = project.body.project.ftpAccounts[0];
    if (!account) throw new Error('no ingest account');
    const ingest = { port: server.ftpPort, user: account.username, password: account.password };
    const ftpDest = { port: vsftpd.port, user: vsftpd.username, password: vsftpd.password };
    const sftpDest = { port: sshd.port, user: sshd.username, password: sshd.password };

    const delivered = (dir: string, count: number) => () => {
      try {
        return (
          vsftpd.files(`incoming/relay/${dir}`).filter((f) => !isTemp(f)).length >= count &&
          walk(sshd.root, `relay/${dir}`).filter((f) => !isTemp(f)).length >= count
        );
      } catch {
        return false; // a temporary file renamed between the listing and its stat: look again
      }
    };
    const relay = async (dir: string, batch: string[]) => {
      await ftpSend(ingest, batch, dir);
      await waitFor(`delivery of ${dir}`, delivered(dir, batch.length));
    };
    // Warm-up: JIT, connections, page cache.
    await relay('warmup', files.slice(0, 4));
    await ftpSend(ftpDest, files.slice(0, 4), 'incoming/warmup');
    await sftpSend(sftpDest, files.slice(0, 4), 'warmup');

    const cpu = {
      server: [] as number[],
      own: [] as number[],
      pglite: [] as number[],
      vsftpd: [] as number[],
      sshd: [] as number[],
    };
    const base = { vsftpd: [] as number[], sshd: [] as number[] };
    const seconds: number[] = [];
    for (let round = 1; round <= rounds; round++) {
      let v = treeCpu(vsftpd.pid);
      await ftpSend(ftpDest, files, `incoming/base-${round}`, () =>
        base.vsftpd.push((treeCpu(vsftpd.pid) - v) / gb),
      );
      let s = treeCpu(sshd.pid);
      await sftpSend(sftpDest, files, `base-${round}`, () => base.sshd.push((treeCpu(sshd.pid) - s) / gb));
      await sleep(1000);

      const p = treeCpu(server.pid);
      const o = ownCpu(server.pid);
      const d = ownCpu(server.dbPid);
      v = treeCpu(vsftpd.pid);
      s = treeCpu(sshd.pid);
      const started = performance.now();
      await relay(`round-${round}`, files);
      seconds.push((performance.now() - started) / 1000);
      await sleep(500); // the last jobs' bookkeeping after the final rename
      cpu.server.push((treeCpu(server.pid) - p) / gb);
      cpu.own.push((ownCpu(server.pid) - o) / gb);
      cpu.pglite.push((ownCpu(server.dbPid) - d) / gb);
      cpu.vsftpd.push((treeCpu(vsftpd.pid) - v) / gb);
      cpu.sshd.push((treeCpu(sshd.pid) - s) / gb);
      const logins = (sshd.output().match(/Accepted password/g) ?? []).length;
      log(`  sshd logins so far: ${logins}`);
      log(
        `round ${round}: server tree ${fmt(cpu.server.at(-1) ?? 0, 2)} CPU s/GB (${fmt(seconds.at(-1) ?? 0, 1)} s), ` +
          `(server process ${fmt(cpu.own.at(-1) ?? 0, 2)}, PGlite ${fmt(cpu.pglite.at(-1) ?? 0, 2)}), direct: vsftpd ${fmt(base.vsftpd.at(-1) ?? 0, 2)} + sshd ${fmt(base.sshd.at(-1) ?? 0, 2)}`,
      );
      await sleep(1000);
    }
    const peak = treeMemory(server.pid);
    await sleep(Number(opts['after-s']) * 1000);
    const after = treeMemory(server.pid);

    const sum = (a: number[], b: number[]) => a.map((x, i) => x + (b[i] ?? 0));
    log('');
    log(
      `${files.length} files x ${fmt(fileBytes / MB, 1)} MB = ${fmt(gb * 1024)} MB per burst, ${clientCount} FTP cameras, 7-field template, 1 FTP (vsftpd) + 1 SFTP (sshd) destination, ${rounds} rounds: median (min-max)`,
    );
    const rows = [
      ['CPU s per GB moved', 'value', 'baseline (direct to vsftpd + sshd)'],
      [
        'PhotoRelay process tree (server + PGlite host + children)',
        spread(cpu.server),
        spread(sum(base.vsftpd, base.sshd)),
      ],
      ['  the server process (all its threads)', spread(cpu.own), ''],
      ['  the PGlite host process', spread(cpu.pglite), ''],
      ['  destinations while relaying: vsftpd', spread(cpu.vsftpd), spread(base.vsftpd)],
      ['  destinations while relaying: sshd', spread(cpu.sshd), spread(base.sshd)],
      ['burst relayed (first byte in to last delivered), s', spread(seconds, 1), ''],
      ['memory, MB', 'RSS sum (each)', 'PSS sum'],
      [`at rest (${opts['rest-s']} s idle after start)`, `${fmt(rest.rss)} (${rest.each})`, fmt(rest.pss)],
      ['right after the last burst', `${fmt(peak.rss)} (${peak.each})`, fmt(peak.pss)],
      [`after ${opts['after-s']} s idle`, `${fmt(after.rss)} (${after.each})`, fmt(after.pss)],
    ];
    const widths = [0, 1, 2].map((i) => Math.max(...rows.map((r) => r[i]?.length ?? 0)));
    for (const r of rows)
      log(
        r
          .map((c, i) => c.padEnd(widths[i] ?? 0))
          .join('  ')
          .trimEnd(),
      );
  } finally {
    for (const stop of stops.reverse()) await Promise.resolve(stop()).catch(() => {});
  }
}

await main();
