import fs from 'node:fs';
import path from 'node:path';
import ssh2 from 'ssh2';

/**
 * SFTP host keys, made once into `dir` and reused, so cameras that pinned the host key keep
 * connecting after a restart. Two keys: ed25519 for current clients, RSA for older camera
 * firmware that knows no ed25519. Written in OpenSSH format (what ssh2 parses) through a temp
 * file and a hard link, so two processes starting together keep the same key.
 */
export function loadOrCreateHostKeys(dir: string): Buffer[] {
  fs.mkdirSync(dir, { recursive: true });
  const kinds = [
    { file: 'ssh_host_ed25519_key', make: () => generateParsableKey('ed25519') },
    { file: 'ssh_host_rsa_key', make: () => generateParsableKey('rsa') },
  ];
  return kinds.map(({ file, make }) => {
    const full = path.join(dir, file);
    if (!fs.existsSync(full)) {
      const tmp = `${full}.${process.pid}.tmp`;
      fs.writeFileSync(tmp, make(), { mode: 0o600 });
      try {
        fs.linkSync(tmp, full);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      } finally {
        fs.unlinkSync(tmp);
      }
    }
    const key = fs.readFileSync(full);
    const parsed = ssh2.utils.parseKey(key);
    if (parsed instanceof Error) throw new Error(`${full} is not a valid host key: ${parsed.message}`);
    return key;
  });
}

/**
 * A new private key that ssh2 can read back. ssh2 1.17 strips leading zero bytes from ed25519
 * public keys, so about 1 in 256 generated keys is "Malformed" to its own parser
 * (mscdex/ssh2#1513): a fresh install would then fail to start. Such a key is made again.
 */
export function generateParsableKey(type: 'ed25519' | 'rsa'): string {
  for (let attempt = 0; attempt < 20; attempt++) {
    const pair =
      type === 'rsa'
        ? ssh2.utils.generateKeyPairSync('rsa', { bits: 3072 })
        : ssh2.utils.generateKeyPairSync('ed25519');
    if (!(ssh2.utils.parseKey(pair.private) instanceof Error)) return pair.private;
  }
  throw new Error(`could not generate a usable ${type} host key`);
}
