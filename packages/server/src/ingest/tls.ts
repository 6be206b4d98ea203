import fs from 'node:fs';
import path from 'node:path';
import type tls from 'node:tls';
import { createSelfSignedCertificate } from './x509.ts';

/**
 * Certificate and TLS settings of the FTPS ingest.
 *
 * Camera bodies (Canon, Nikon, Sony) ship old, rarely updated TLS stacks: they do TLS 1.2 but
 * often not 1.3 and offer RSA certificates only. So: TLS 1.2 (see maxVersion below), an RSA
 * certificate, and only ECDHE key exchange (forward secrecy): the plain-RSA suites (AES128-SHA
 * and friends) are not offered, so a recorded session cannot be decrypted later with the key.
 * The server picks, in this order.
 */
export const CAMERA_TLS_CIPHERS = [
  'ECDHE-ECDSA-AES128-GCM-SHA256',
  'ECDHE-RSA-AES128-GCM-SHA256',
  'ECDHE-ECDSA-AES256-GCM-SHA384',
  'ECDHE-RSA-AES256-GCM-SHA384',
  'ECDHE-RSA-CHACHA20-POLY1305',
  'ECDHE-RSA-AES128-SHA256',
  'ECDHE-RSA-AES256-SHA384',
  'ECDHE-RSA-AES128-SHA',
  'ECDHE-RSA-AES256-SHA',
].join(':');

export interface TlsMaterial {
  cert: string;
  key: string;
}

/** TLS options for both the command and the data connections of the FTPS servers. */
export function cameraTlsOptions(material: TlsMaterial): tls.SecureContextOptions {
  return {
    cert: material.cert,
    key: material.key,
    minVersion: 'TLSv1.2',
    // Not 1.3: its server sends session tickets after the handshake; an uploading client that
    // never reads them (lftp/GnuTLS does this) then closes with unread data, the kernel sends
    // RST, and data still in our receive buffer is lost while Node reports a clean end:
    // a silently truncated picture (seen in ftp-server.int.test.ts with lftp). TLS 1.2 has
    // nothing after the handshake, and it is what camera bodies speak anyway.
    maxVersion: 'TLSv1.2',
    ciphers: CAMERA_TLS_CIPHERS,
    honorCipherOrder: true,
  };
}

function readPem(value: string): string {
  // FTPS_CERT / FTPS_KEY may hold the PEM itself (containers pass secrets so) or a file path.
  return value.trimStart().startsWith('-----BEGIN') ? value : fs.readFileSync(value, 'utf8');
}

/**
 * The FTPS certificate: FTPS_CERT/FTPS_KEY when both are given, else a self-signed one made
 * once and kept in `dataDir/ftps-selfsigned.pem` (key and certificate in one file, written
 * atomically, so two processes starting together cannot end up with a mismatched pair).
 */
export async function loadOrCreateTlsMaterial(options: {
  certFile?: string;
  keyFile?: string;
  dataDir: string;
  commonName?: string;
}): Promise<TlsMaterial> {
  if (options.certFile || options.keyFile) {
    if (!options.certFile || !options.keyFile) throw new Error('FTPS_CERT and FTPS_KEY must be set together');
    return { cert: readPem(options.certFile), key: readPem(options.keyFile) };
  }
  const file = path.join(options.dataDir, 'ftps-selfsigned.pem');
  if (!fs.existsSync(file)) {
    const made = await createSelfSignedCertificate({
      commonName: options.commonName ?? 'photorelay.local',
      altNames: ['localhost'],
    });
    fs.mkdirSync(options.dataDir, { recursive: true });
    const tmp = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, made.key + made.cert, { mode: 0o600 });
    try {
      fs.linkSync(tmp, file); // fails if another process was first; then we use theirs
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    } finally {
      fs.unlinkSync(tmp);
    }
  }
  const pem = fs.readFileSync(file, 'utf8');
  const key = /-----BEGIN PRIVATE KEY-----[\s\S]+?-----END PRIVATE KEY-----\n?/.exec(pem)?.[0];
  const cert = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----\n?/.exec(pem)?.[0];
  if (!key || !cert) throw new Error(`${file} is corrupt; delete it to make a new certificate`);
  return { key, cert };
}

/**
 * Certificate renewals (certbot, Caddy, an ACME client) replace FTPS_CERT and FTPS_KEY on disk:
 * both files are looked at every `intervalMs`, and when either changed the pair is read again and
 * handed to `apply` (which refuses a key that does not match its certificate: the old pair
 * stays until the files agree). PEM given inline is never reloaded. Returns a stop function.
 */
export function watchTlsFiles(
  options: { certFile?: string; keyFile?: string; intervalMs?: number },
  apply: (material: TlsMaterial) => void,
  log: { info(msg: string): void; error(obj: object, msg: string): void },
): () => void {
  const { certFile, keyFile } = options;
  const isPath = (v?: string): v is string => !!v && !v.trimStart().startsWith('-----BEGIN');
  if (!isPath(certFile) || !isPath(keyFile)) return () => {};
  const files = [certFile, keyFile];
  const onChange = (current: fs.Stats, previous: fs.Stats) => {
    if (current.mtimeMs === previous.mtimeMs && current.ino === previous.ino) return;
    try {
      apply({ cert: readPem(certFile), key: readPem(keyFile) });
      log.info('FTPS certificate reloaded');
    } catch (err) {
      // A renewal writes the two files one after the other: the next change of the second
      // one brings a matching pair.
      log.error({ err }, 'FTPS certificate not reloaded; the previous one stays in use');
    }
  };
  for (const file of files)
    fs.watchFile(file, { interval: options.intervalMs ?? 5000, persistent: false }, onChange);
  return () => {
    for (const file of files) fs.unwatchFile(file, onChange);
  };
}
