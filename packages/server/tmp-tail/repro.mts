import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DestinationPool } from '../src/adapters/destinations/pool.ts';
import { startOpenSshd } from '../test/support/openssh.ts';

const n = Number(process.argv[2] ?? 40);
const conc = Number(process.argv[3] ?? 4);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tail-files-'));
const files = Array.from({ length: 8 }, (_, i) => {
  const f = path.join(dir, `f${i}.jpg`);
  fs.writeFileSync(f, crypto.randomBytes(6_200_000));
  return f;
});
const d = await startOpenSshd();
const pool = new DestinationPool();
const server = {
  id: 1,
  maxConnections: conc,
  settings: { protocol: 'sftp' as const, host: '127.0.0.1', port: d.port, username: d.username, password: d.password, allowPrivateNetworks: true },
};
const failures: string[] = [];
let next = 0;
const t0 = Date.now();
const times: number[] = [];
await Promise.all(
  Array.from({ length: conc }, async () => {
    while (next < n) {
      const i = next++;
      const t = Date.now();
      try {
        await pool.use(server, (c) => c.upload(files[i % files.length] as string, 'in', `IMG_${i}.JPG`, { tempTag: `job${i}` }));
        times.push(Date.now() - t);
      } catch (e) {
        failures.push(`${i} after ${Date.now() - t} ms: ${(e as Error).message}`);
      }
    }
  }),
);
times.sort((a, b) => a - b);
console.log(JSON.stringify({ n, conc, totalMs: Date.now() - t0, medianMs: times[times.length >> 1], worstMs: times.at(-1), failures, load: fs.readFileSync('/proc/loadavg', 'utf8').trim() }));
await pool.closeAll();
const log = d.output();
console.log(log.split('\n').filter((l) => /error|fatal|drop|refus|timeout|reset|Beginning MaxStartups|exceeded/i.test(l)).slice(0, 20).join('\n'));
await d.stop();
fs.rmSync(dir, { recursive: true });
