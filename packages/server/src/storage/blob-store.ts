import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { type Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/** Where file contents live. Local disk now; an S3-compatible store can implement the same. */
export interface BlobStore {
  /** Streams into a new blob, flushed to disk before it resolves. Over `maxBytes` rejects and keeps nothing. */
  write(
    data: Readable,
    options?: { maxBytes?: number },
  ): Promise<{ key: string; size: number; sha256: string }>;
  read(key: string): Readable;
  /** A local path for adapters that want one (FTP clients upload from a file). */
  localPath(key: string): string;
  /** A second key for the same content (a hard link: no copy). */
  duplicate(key: string): Promise<string>;
  remove(key: string): Promise<void>;
  size(key: string): Promise<number>;
}

export class SizeLimitError extends Error {
  constructor(readonly maxBytes: number) {
    super(`File larger than ${maxBytes} bytes`);
  }
}

export function createLocalBlobStore(root: string): BlobStore {
  const tmpDir = path.join(root, 'tmp');
  fs.mkdirSync(tmpDir, { recursive: true });
  // Keys are date folders plus a uuid: never user input, so no path can escape the root.
  const newKey = () => {
    const d = new Date().toISOString();
    return `${d.slice(0, 4)}/${d.slice(5, 7)}/${d.slice(8, 10)}/${randomUUID()}`;
  };
  const keyPath = (key: string) => {
    if (!/^\d{4}\/\d{2}\/\d{2}\/[0-9a-f-]{36}$/.test(key)) throw new Error(`invalid blob key ${key}`);
    return path.join(root, key);
  };

  return {
    async write(data, options = {}) {
      const key = newKey();
      const tmp = path.join(tmpDir, randomUUID());
      const hash = createHash('sha256');
      let size = 0;
      const meter = new Transform({
        transform(chunk: Buffer, _enc, done) {
          size += chunk.length;
          if (options.maxBytes !== undefined && size > options.maxBytes)
            return done(new SizeLimitError(options.maxBytes));
          hash.update(chunk);
          done(null, chunk);
        },
      });
      try {
        await pipeline(data, meter, fs.createWriteStream(tmp));
        // Flushed to disk before anyone is told the file is stored.
        const handle = await fsp.open(tmp, 'r+');
        await handle.sync().finally(() => handle.close());
      } catch (error) {
        await fsp.rm(tmp, { force: true });
        throw error;
      }
      const target = keyPath(key);
      await fsp.mkdir(path.dirname(target), { recursive: true });
      await fsp.rename(tmp, target);
      // The rename itself is durable only once its directory is flushed.
      const dir = await fsp.open(path.dirname(target), 'r');
      await dir.sync().finally(() => dir.close());
      return { key, size, sha256: hash.digest('hex') };
    },
    read: (key) => fs.createReadStream(keyPath(key)),
    localPath: keyPath,
    async duplicate(key) {
      const copy = newKey();
      await fsp.mkdir(path.dirname(keyPath(copy)), { recursive: true });
      await fsp.link(keyPath(key), keyPath(copy));
      return copy;
    },
    async remove(key) {
      await fsp.rm(keyPath(key), { force: true });
    },
    async size(key) {
      return (await fsp.stat(keyPath(key))).size;
    },
  };
}
