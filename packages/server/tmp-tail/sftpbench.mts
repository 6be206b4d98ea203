// Compare ways to send 6.2 MB files to OpenSSH on loopback, 4 at a time, alternating rounds.
import { execFile, execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import SftpClient from 'ssh2-sftp-client';
import { startOpenSshd } from '../test/support/openssh.ts';
const run = promisify(execFile);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tail-bench-'));
const files = Array.from({ length: 12 }, (_, i) => {
  const f = path.join(dir, `f${i}.jpg`);
  fs.writeFileSync(f, crypto.randomBytes(6_200_000));
  return f;
});
const key = path.join(dir, 'id');
execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', key]);
fs.writeFileSync(path.join(dir, 'authorized_keys'), fs.readFileSync(`${key}.pub`));
fs.chmodSync(dir, 0o755);
const d = await startOpenSshd({ sshdOptions: ['PubkeyAuthentication yes', `AuthorizedKeysFile ${dir}/authorized_keys`] });
const conn = { host: '127.0.0.1', port: d.port, username: d.username, password: d.password };
const C = 4;
async function pooled(send: (c: SftpClient, f: string, to: string) => Promise<unknown>) {
  const clients = await Promise.all(Array.from({ length: C }, async () => { const c = new SftpClient(); await c.connect(conn); return c; }));
  const t = performance.now();
  let next = 0;
  await Promise.all(clients.map(async (c) => { while (next < files.length) { const i = next++; await send(c, files[i] as string, `${d.root}/o${i}.jpg`); } }));
  const ms = performance.now() - t;
  await Promise.all(clients.map((c) => c.end()));
  return ms;
}
const ways: Record<string, () => Promise<number>> = {
  'fastPut (64 x 32 KB, now)': () => pooled((c, f, to) => c.fastPut(f, to)),
  'fastPut 16 x 256 KB': () => pooled((c, f, to) => c.fastPut(f, to, { concurrency: 16, chunkSize: 262144 })),
  'fastPut 8 x 256 KB': () => pooled((c, f, to) => c.fastPut(f, to, { concurrency: 8, chunkSize: 262144 })),
  'fastPut 32 x 128 KB': () => pooled((c, f, to) => c.fastPut(f, to, { concurrency: 32, chunkSize: 131072 })),
};
const res: Record<string, number[]> = {};
const rounds = Number(process.argv[2] ?? 3);
for (let r = 0; r < rounds; r++) for (const [name, way] of Object.entries(ways)) (res[name] ??= []).push(await way());
const MB = (12 * 6.2);
for (const [name, ms] of Object.entries(res)) {
  for (let i = 0; i < 12; i++) if (!fs.existsSync(`${d.root}/o${i}.jpg`) || crypto.createHash('sha256').update(fs.readFileSync(`${d.root}/o${i}.jpg`)).digest('hex') !== crypto.createHash('sha256').update(fs.readFileSync(files[i] as string)).digest('hex')) console.log('MISMATCH', i);
  const s = [...ms].sort((a, b) => a - b);
  console.log(`${name.padEnd(45)} median ${Math.round(s[s.length >> 1] as number)} ms (${(MB / ((s[s.length >> 1] as number) / 1000)).toFixed(0)} MB/s), worst ${Math.round(s.at(-1) as number)} ms`);
}
console.log('load', fs.readFileSync('/proc/loadavg', 'utf8').trim());
await d.stop();
fs.rmSync(dir, { recursive: true });
