import assert from 'node:assert/strict';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import tls from 'node:tls';
import { startTestServer, type TestServer } from '../../test/support/server.ts';
import { createSelfSignedCertificate } from './x509.ts';

// Issue 30 item 1: FTPS uses a real certificate when given one (FTPS_CERT/FTPS_KEY) and takes a
// renewed one without a restart, as certificate renewals need.
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'photorelay-ftps-cert-'));
const certFile = path.join(dir, 'fullchain.pem');
const keyFile = path.join(dir, 'privkey.pem');
let server: TestServer;

async function writePair(commonName: string) {
  const made = await createSelfSignedCertificate({ commonName, altNames: [commonName] });
  // As an ACME client does: write aside, then rename over the old file.
  for (const [file, pem] of [
    [certFile, made.cert],
    [keyFile, made.key],
  ] as const) {
    fs.writeFileSync(`${file}.new`, pem);
    fs.renameSync(`${file}.new`, file);
  }
  return made;
}

/** The certificate the FTP port shows after AUTH TLS. */
async function presentedName(port: number): Promise<string> {
  const plain = net.connect(port, '127.0.0.1');
  let seen = '';
  let asked = false;
  await new Promise<void>((resolve, reject) => {
    plain.on('error', reject);
    plain.on('data', (d: Buffer) => {
      seen += d.toString();
      if (/^220 /m.test(seen) && !asked) {
        asked = true;
        plain.write('AUTH TLS\r\n');
      } else if (/^234 /m.test(seen)) {
        plain.removeAllListeners('data');
        resolve();
      }
    });
  });
  const secure = tls.connect({ socket: plain, rejectUnauthorized: false });
  await new Promise((resolve, reject) => {
    secure.once('secureConnect', resolve);
    secure.once('error', reject);
  });
  const name = String(secure.getPeerCertificate().subject.CN);
  secure.destroy();
  return name;
}

async function waitForName(port: number, name: string) {
  let seen = '';
  for (let i = 0; i < 80; i++) {
    seen = await presentedName(port);
    if (seen === name) return seen;
    await new Promise((r) => setTimeout(r, 100));
  }
  return seen;
}

before(async () => {
  await writePair('first.photorelay.test');
  server = await startTestServer({ FTPS_CERT: certFile, FTPS_KEY: keyFile, FTPS_CERT_CHECK_SECONDS: '1' });
});
after(async () => {
  await server.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

test('FTPS shows the given certificate and a renewed one without a restart', async () => {
  const port = server.running.ingest?.ftpPort ?? 0;
  assert.equal(await presentedName(port), 'first.photorelay.test');
  await writePair('renewed.photorelay.test');
  assert.equal(await waitForName(port, 'renewed.photorelay.test'), 'renewed.photorelay.test');

  // A key that does not match its certificate (a renewal caught halfway) changes nothing.
  const other = await createSelfSignedCertificate({ commonName: 'other.photorelay.test' });
  fs.writeFileSync(`${keyFile}.new`, other.key);
  fs.renameSync(`${keyFile}.new`, keyFile);
  await new Promise((r) => setTimeout(r, 2500));
  assert.equal(await presentedName(port), 'renewed.photorelay.test');
});
