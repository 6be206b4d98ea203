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
    { file: 'ssh_host_ed25519_key', make: () => ssh2.utils.generateKeyPairSync('ed25519') },
    { file: 'ssh_host_rsa_key', make: () => ssh2.utils.generateKeyPairSync('rsa', { bits: 3072 }) },
  ];
  return kinds.map(({ file, make }) => {
    const full = path.join(dir, file);
    if (!fs.existsSync(full)) {
      const tmp = `${full}.${process.pid}.tmp`;
      fs.writeFileSync(tmp, make().private, { mode: 0o600 });
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
