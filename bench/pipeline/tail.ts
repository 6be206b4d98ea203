// The pipeline's tail (issue 15): 40 noisy 6.2 MB JPEGs from 4 curl clients into a project with
// an FTP (Debian's vsftpd) and an SFTP (Debian's OpenSSH) destination, against the same clients
// sending every file to both servers themselves. Per run: when the last upload is acknowledged
// (the last curl exits) and when the last file has arrived at both destinations (its final
// name appears). Runs alternate baseline / relay / relay with a metadata template. Needs root
// (vsftpd, sshd), curl with SFTP; see ../README.md.
//
//   npx tsx bench/pipeline/tail.ts [--runs 10] [--files 40] [--size-mb 6.2] [--clients 4] [--timeline]
//
// --timeline: after each relay run, the last files' way through the relay (from the jobs and
// their tries, ms after the run's start): recorded, each delivery's start and end, arrival.
import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs, promisify } from 'node:util';
import { startOpenSshd } from '../../packages/server/test/support/openssh.ts';
import { prepareData } from '../../packages/server/test/support/prepared-data.ts';
import { serverProcess } from '../../packages/server/test/support/process.ts';
import { startVsftpd } from '../../packages/server/test/support/vsftpd.ts';
import { makeFrame, metadataHead, standardTables, writeSyntheticJpeg } from '../stamp/synthetic-jpeg.ts';

const run = promisify(execFile);
const here = path.dirname(fileURLToPath(import.meta.url));
const images = path.resolve(here, '../../../shared/data/images');
const { values: opts } = parseArgs({
  options: {
    runs: { type: 'string', default: '10' },
    files: { type: 'string', default: '40' },
    'size-mb': { type: 'string', default: '6.2' },
    clients: { type: 'string', default: '4' },
    timeline: { type: 'boolean', default: false },
  },
});
const runs = Number(opts.runs);
const clients = Number(opts.clients);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const log = (text: string) => console.log(text);
const load = () => fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');

/** Noisy JPEGs (random image data, real metadata heads) of the given size. */
async function generateFiles(dir: string): Promise<string[]> {
  const frame = makeFrame(standardTables(fs.readFileSync(path.join(images, 'exiv2-FurnaceCreekInn.jpg'))));
  const head = metadataHead(fs.readFileSync(path.join(images, 'IPTC-PhotometadataRef-Std2025.1.jpg')));
  const files: string[] = [];
  for (let i = 0; i < Number(opts.files); i++) {
    const unique = Buffer.concat([Buffer.from([0xff, 0xfe, 0x00, 0x12]), crypto.randomBytes(16)]);
    const file = path.join(dir, `IMG_${String(i).padStart(4, '0')}.JPG`);
    await writeSyntheticJpeg(file, [...head, unique], frame, Math.round(Number(opts['size-mb']) * 1e6));
    files.push(file);
  }
  return files;
}

/**
 * When `file` got its final name (the rename sets the ctime), or undefined while it is missing.
 * Polled, not watched: a recursive fs.watch missed files renamed into a folder made a moment ago.
 */
function arrivedAt(file: string): number | undefined {
  try {
    return fs.statSync(file).ctimeMs;
  } catch {
    return undefined;
  }
}

/** The time the last of `files` arrived; throws (naming what is missing) after `timeoutMs`. */
async function lastArrival(files: string[], timeoutMs: number): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const times = files.map(arrivedAt);
    if (times.every((t) => t !== undefined)) return Math.round(Math.max(...(times as number[])));
    if (Date.now() > deadline)
      throw new Error(
        `not delivered after ${timeoutMs} ms: ${files.filter((_, i) => times[i] === undefined).join(', ')}`,
      );
    await sleep(100);
  }
}

const median = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor((v.length - 1) / 2)] ?? Number.NaN;
const worst = (v: number[]) => Math.max(...v);

async function main() {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'photorelay-bench-tail-'));
  const vsftpd = await startVsftpd();
  const sshd = await startOpenSshd();
  const data = await prepareData();
  const server = await serverProcess({
    dataDir: data.dataDir,
    env: { LOG_LEVEL: 'warn', JOB_LEASE_SECONDS: '60' },
  });
  try {
    log(
      `machine: ${os.cpus().length} vCPU, Node ${process.version}, load ${load()} (other helpers share it)`,
    );
    const files = await generateFiles(work);
    log(
      `${files.length} noisy JPEGs of ${opts['size-mb']} MB, ${clients} curl clients, ${runs} runs per case`,
    );
    await server.start();
    const owner = await server.login(data.team.email, data.team.password);
    const api = (s: string) => `/api/${data.team.teamUuid}${s}`;

    async function project(name: string, template: boolean) {
      const created = await owner.post<{ projectId: number }>(api('/project'), {
        name,
        parentFolderId: data.team.projectsRootId,
      });
      const id = created.body.projectId;
      const servers = [
        {
          protocol: 'ftp',
          port: vsftpd.port,
          path: `incoming/${name}`,
          username: vsftpd.username,
          password: vsftpd.password,
        },
        {
          protocol: 'sftp',
          port: sshd.port,
          path: `${sshd.root}/${name}`,
          username: sshd.username,
          password: sshd.password,
        },
      ];
      for (const s of servers) {
        const added = await owner.post<{ ftpserverid: number }>(api('/ftpserver'), {
          name: `${name} ${s.protocol}`,
          host: '127.0.0.1',
          parentFolderId: data.team.ftpserversRootId,
          ...s,
        });
        if (added.status !== 200) throw new Error(JSON.stringify(added.body));
        await owner.post(api(`/project/${id}/ftpserver/${added.body.ftpserverid}`));
      }
      if (template) {
        await owner.put(api(`/project/${id}/xmpvalue/headline`), { value: 'Bundesliga live' });
        await owner.put(api(`/project/${id}/xmpvaluemode/headline/mode/replace`), {});
        await owner.put(api(`/project/${id}/xmpvalue/credit`), { value: 'PhotoRelay Agency' });
        await owner.put(api(`/project/${id}/xmpvaluemode/credit/mode/replace`), {});
      }
      const p = await owner.get<{ project: { ftpAccounts: Array<{ username: string; password: string }> } }>(
        api(`/project/${id}`),
      );
      const account = p.body.project.ftpAccounts[0];
      if (!account) throw new Error('no ingest account');
      return { id, account };
    }
    const plain = await project('tail-plain', false);
    const templated = await project('tail-template', true);

    /** The files split over the clients, each a curl with its share. */
    const shares = Array.from({ length: clients }, (_, c) => files.filter((_, i) => i % clients === c));
    const curl = (args: string[]) =>
      run('curl', ['-sS', '--ftp-create-dirs', ...args], { maxBuffer: 1 << 20 });
    const glob = (share: string[]) => `{${share.join(',')}}`;
    type Job = {
      filename: string;
      ftpservername: string | null;
      createtime: string;
      tries?: Array<{ startedAt: string; durationMs: number }>;
    };
    const jobsOf = async (projectId: number) =>
      (await owner.post<{ jobs: Job[] }>(api('/jobs/500/0'), { projectid: projectId })).body.jobs;
    const failedTries = async (projectId: number) =>
      (await jobsOf(projectId)).reduce((n, j) => n + Math.max(0, (j.tries?.length ?? 1) - 1), 0);

    /** The 6 files that arrived last: recorded, each delivery's start and end, arrival (ms after t0). */
    async function printTimeline(
      projectId: number,
      dir: string,
      t0: number,
      acked: number,
      at: (f: string) => string[],
    ) {
      const jobs = (await jobsOf(projectId)).filter((j) => j.filename.startsWith(`${dir}/`));
      const ms = (iso: string) => Date.parse(iso) - t0;
      const rows = [...new Set(jobs.map((j) => j.filename))].map((name) => {
        const own = jobs.filter((j) => j.filename === name);
        const arrived = Math.max(...at(name).map((f) => (arrivedAt(f) ?? Number.NaN) - t0));
        const legs = own.map((j) => {
          const last = j.tries?.at(-1);
          const start = last ? ms(last.startedAt) : Number.NaN;
          return `${(j.ftpservername ?? '?').split(' ').pop()} ${start}–${Math.round(start + (last?.durationMs ?? Number.NaN))}`;
        });
        return { name, arrived, text: `recorded ${ms(own[0]?.createtime ?? '')}, ${legs.join(', ')}` };
      });
      log(`  timeline of ${dir} (ms after the start; last ack at ${acked - t0}):`);
      for (const r of rows.sort((a, b) => a.arrived - b.arrived).slice(-6))
        log(`    ${r.name.padEnd(20)} ${r.text}, at both ${Math.round(r.arrived)}`);
    }

    async function relayRun(
      p: { id: number; account: { username: string; password: string } },
      name: string,
      dir: string,
    ) {
      const before = await failedTries(p.id);
      const t0 = Date.now();
      await Promise.all(
        shares.map((share) =>
          curl([
            '-u',
            `${p.account.username}:${p.account.password}`,
            '-T',
            glob(share),
            `ftp://127.0.0.1:${server.ftpPort}/${dir}/`,
          ]),
        ),
      );
      const acked = Date.now();
      const names = files.map((f) => `${name}/${dir}/${path.basename(f)}`);
      const last = await lastArrival(
        names.flatMap((n) => [path.join(vsftpd.root, 'incoming', n), path.join(sshd.root, n)]),
        300_000,
      );
      if (opts.timeline)
        await printTimeline(p.id, dir, t0, acked, (f) => [
          path.join(vsftpd.root, 'incoming', name, f),
          path.join(sshd.root, name, f),
        ]);
      return {
        total: last - t0,
        ack: acked - t0,
        late: last - acked,
        retried: (await failedTries(p.id)) - before,
      };
    }

    /**
     * The clients' own run; once more into a new folder when a curl fails (at load 15-25 curl's
     * SFTP login to sshd failed now and then with "Authentication failure", ending the bench).
     */
    async function baselineRun(dir: string): Promise<number> {
      try {
        return await baselineTry(dir);
      } catch (error) {
        log(`  clients' run ${dir} failed (${String(error).split('\n')[1] ?? error}); once more`);
        return await baselineTry(`${dir}-again`);
      }
    }

    async function baselineTry(dir: string) {
      const t0 = Date.now();
      await Promise.all(
        shares.flatMap((share) => [
          curl([
            '-u',
            `${vsftpd.username}:${vsftpd.password}`,
            '-T',
            glob(share),
            `ftp://127.0.0.1:${vsftpd.port}/incoming/base/${dir}/`,
          ]),
          curl([
            '-k',
            '-u',
            `${sshd.username}:${sshd.password}`,
            '-T',
            glob(share),
            `sftp://127.0.0.1:${sshd.port}${sshd.root}/base/${dir}/`,
          ]),
        ]),
      );
      return Date.now() - t0;
    }

    // Warm-up (page cache, JIT, connections).
    await baselineRun('warmup');
    await relayRun(plain, 'tail-plain', 'warmup');
    const r = {
      base: [] as number[],
      plain: [] as Awaited<ReturnType<typeof relayRun>>[],
      template: [] as Awaited<ReturnType<typeof relayRun>>[],
    };
    for (let i = 1; i <= runs; i++) {
      const base = await baselineRun(`run${i}`);
      const a = await relayRun(plain, 'tail-plain', `run${i}`);
      const b = await relayRun(templated, 'tail-template', `run${i}`);
      r.base.push(base);
      r.plain.push(a);
      r.template.push(b);
      log(
        `run ${String(i).padStart(2)}: clients to both ${base} ms | relay ${a.total} ms (acked ${a.ack}, last file +${a.late} ms, ${(a.total / base).toFixed(2)}x, ${a.retried} retried) | with template ${b.total} ms (+${b.late} ms, ${(b.total / base).toFixed(2)}x, ${b.retried} retried) | load ${load()}`,
      );
    }
    const row = (label: string, v: number[], unit = ' ms') =>
      log(
        `${label.padEnd(38)} median ${median(v).toFixed(unit ? 0 : 2)}${unit}   worst ${worst(v).toFixed(unit ? 0 : 2)}${unit}`,
      );
    log('');
    row('clients send to both servers', r.base);
    for (const [name, results] of [
      ['relay', r.plain],
      ['template', r.template],
    ] as const) {
      row(
        `${name}: last file at both`,
        results.map((x) => x.total),
      );
      row(
        `${name}: last file after last ack`,
        results.map((x) => x.late),
      );
      row(
        `${name} / clients`,
        results.map((x, i) => x.total / (r.base[i] ?? 1)),
        '',
      );
    }
    log(
      `template adds ${((median(r.template.map((x) => x.total)) / median(r.plain.map((x) => x.total)) - 1) * 100).toFixed(1)} % to the median`,
    );
    log(
      `tries that failed and were retried: ${[...r.plain, ...r.template].reduce((n, x) => n + x.retried, 0)}; load at the end ${load()}`,
    );
  } finally {
    await server.stop().catch(() => {});
    await data.remove().catch(() => {});
    await vsftpd.stop().catch(() => {});
    await sshd.stop().catch(() => {});
    fs.rmSync(work, { recursive: true, force: true });
  }
}

await main();
