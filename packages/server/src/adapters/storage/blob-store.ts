import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { type FilePart, readFileParts } from './file-parts.ts';

/** Where file contents live. Local disk now; an S3-compatible store can implement the same. */
export interface BlobStore {
  /** Streams into a new blob, flushed to disk before it resolves. Over `maxBytes` rejects and keeps nothing. */
  write(
    data: Readable,
    options?: { maxBytes?: number },
  ): Promise<{ key: string; size: number; sha256: string }>;
  /**
   * A new blob of `head` followed by the bytes of `data.file` from `data.start` to its end, where
   * `data.file` is a path `withLocalFile` or `withLocalParts` handed over: a stamped file is its
   * new head and the received file's image data, which is never copied (the local store keeps a
   * hard link to it). Flushed to disk before it resolves.
   */
  writeSpliced(head: Buffer, data: { file: string; start: number }): Promise<{ key: string; size: number }>;
  /** Streams a blob, or the bytes `start` to `end` (inclusive) of it. */
  read(key: string, range?: { start: number; end: number }): Readable;
  /**
   * Runs `use` with the path of a local file holding the blob, for tools that read a path (the
   * stamper, the picture scaler). The file is read-only to `use` and only valid until it settles:
   * the local store hands over its own file, a temp copy for a spliced blob (as a remote store
   * would).
   */
  withLocalFile<T>(key: string, use: (file: string) => Promise<T>): Promise<T>;
  /**
   * Runs `use` with the local file ranges that hold the blob, in order: one file for most blobs,
   * a head and a range of the received file for a spliced one (a delivery sends them as they
   * are). Valid until `use` settles, like withLocalFile.
   */
  withLocalParts<T>(key: string, use: (parts: readonly FilePart[]) => Promise<T>): Promise<T>;
  exists(key: string): Promise<boolean>;
  /** A second key for the same content (a hard link: no copy). */
  duplicate(key: string): Promise<string>;
  remove(key: string): Promise<void>;
  size(key: string): Promise<number>;
  /**
   * Keys of the blobs whose files were all last written (or linked) before `before`, and pieces
   * of a blob a crash left half-made (a spliced blob's data without its head): what the sweep of
   * crash leftovers checks against the database (orphan-sweep.ts).
   */
  listKeys(before: Date): AsyncIterable<string>;
  /** Removes temp files last written before `before` (a write a stopped process left); resolves with their count. */
  removeTemp(before: Date): Promise<number>;
}

/** The SHA-256 (hex) of a blob, read once. */
export async function blobSha256(blobs: BlobStore, key: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of blobs.read(key)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

export class SizeLimitError extends Error {
  constructor(readonly maxBytes: number) {
    super(`File larger than ${maxBytes} bytes`);
  }
}

/** 1 MiB reads: reading and passing on a file takes about 40 % less CPU than with Node's 64 KiB (bench/README.md). */
const readChunkBytes = 1 << 20;

/**
 * Blobs on local disk. A key is a date folder and a uuid (`2026/11/27/<uuid>`), its file under
 * the root; a spliced blob's key ends in `.<start>` and it is two files: `<key>.head` and
 * `<key>.data`, a hard link to the file whose bytes from `start` on follow the head.
 */
export function createLocalBlobStore(root: string): BlobStore {
  const tmpDir = path.join(root, 'tmp');
  fs.mkdirSync(tmpDir, { recursive: true });
  sweepTemp(tmpDir);
  // Keys are date folders plus a uuid: never user input, so no path can escape the root.
  const newKey = () => {
    const d = new Date().toISOString();
    return `${d.slice(0, 4)}/${d.slice(5, 7)}/${d.slice(8, 10)}/${randomUUID()}`;
  };
  /** A key's files: one, or a spliced blob's head and data (its image data from `start`). */
  const located = (key: string): { file: string } | { head: string; data: string; start: number } => {
    const match = /^\d{4}\/\d{2}\/\d{2}\/[0-9a-f-]{36}(?:\.(\d{1,15}))?$/.exec(key);
    if (!match) throw new Error(`invalid blob key ${key}`);
    const file = path.join(root, key);
    return match[1] === undefined
      ? { file }
      : { head: `${file}.head`, data: `${file}.data`, start: Number(match[1]) };
  };
  const filesOf = (key: string): string[] => {
    const at = located(key);
    return 'file' in at ? [at.file] : [at.head, at.data];
  };
  const partsOf = async (key: string): Promise<FilePart[]> => {
    const at = located(key);
    if ('file' in at) return [{ file: at.file, start: 0, end: (await fsp.stat(at.file)).size }];
    const [head, data] = await Promise.all([fsp.stat(at.head), fsp.stat(at.data)]);
    if (data.size < at.start) throw new Error(`blob ${key}: its data file is shorter than ${at.start} bytes`);
    return [
      { file: at.head, start: 0, end: head.size },
      { file: at.data, start: at.start, end: data.size },
    ];
  };
  async function* readParts(key: string, range?: { start: number; end: number }) {
    yield* readFileParts(await partsOf(key), range);
  }
  /** Flushes a folder: a rename or link in it is durable only then. */
  const syncDir = async (dir: string) => {
    const handle = await fsp.open(dir, 'r');
    await handle.sync().finally(() => handle.close());
  };
  /** Moves a finished temp file (on disk) to a new key, durably. */
  const keep = async (tmp: string): Promise<string> => {
    const key = newKey();
    const target = path.join(root, key);
    await fsp.mkdir(path.dirname(target), { recursive: true });
    await fsp.rename(tmp, target);
    await syncDir(path.dirname(target));
    return key;
  };
  /** Writes `bytes` to a new temp file, flushed to disk. */
  const writeTemp = async (bytes: Buffer): Promise<string> => {
    const tmp = path.join(tmpDir, randomUUID());
    const handle = await fsp.open(tmp, 'w');
    try {
      await handle.writeFile(bytes);
      await handle.sync();
    } finally {
      await handle.close();
    }
    return tmp;
  };

  return {
    async write(data, options = {}) {
      const tmp = path.join(tmpDir, randomUUID());
      const file = new BlobFileWriter(tmp, options.maxBytes);
      try {
        // The writer flushes the file to disk before it finishes: stored means on disk.
        await pipeline(data, file);
      } catch (error) {
        await fsp.rm(tmp, { force: true });
        throw error;
      }
      return { key: await keep(tmp), size: file.size, sha256: file.sha256() };
    },
    async writeSpliced(head, data) {
      const { size } = await fsp.stat(data.file);
      if (!Number.isSafeInteger(data.start) || data.start < 0 || data.start > size)
        throw new Error(`splice start ${data.start} is outside the file (${size} bytes)`);
      const key = `${newKey()}.${data.start}`;
      const at = located(key) as { head: string; data: string };
      const tmp = await writeTemp(head);
      try {
        await fsp.mkdir(path.dirname(at.head), { recursive: true });
        // The data first: a head without its data is never found under the key.
        await fsp.link(data.file, at.data);
        await fsp.rename(tmp, at.head);
        await syncDir(path.dirname(at.head));
      } catch (error) {
        await Promise.all([tmp, at.head, at.data].map((file) => fsp.rm(file, { force: true })));
        throw error;
      }
      return { key, size: head.length + size - data.start };
    },
    read(key, range) {
      const at = located(key);
      if ('file' in at) return fs.createReadStream(at.file, { highWaterMark: readChunkBytes, ...range });
      return Readable.from(readParts(key, range), { objectMode: false });
    },
    withLocalFile: async (key, use) => {
      const at = located(key);
      if ('file' in at) return use(at.file);
      // A tool that wants one file (the picture scaler, a stamp of a delivered copy): a temp copy.
      const tmp = path.join(tmpDir, randomUUID());
      try {
        await pipeline(Readable.from(readParts(key)), fs.createWriteStream(tmp));
        return await use(tmp);
      } finally {
        await fsp.rm(tmp, { force: true });
      }
    },
    withLocalParts: async (key, use) => use(await partsOf(key)),
    exists: (key) =>
      Promise.all(filesOf(key).map((file) => fsp.access(file))).then(
        () => true,
        () => false,
      ),
    async duplicate(key) {
      const at = located(key);
      const copy = 'file' in at ? newKey() : `${newKey()}.${at.start}`;
      const [from, to] = [filesOf(key), filesOf(copy)];
      await fsp.mkdir(path.dirname(to[0] as string), { recursive: true });
      await Promise.all(from.map((file, i) => fsp.link(file, to[i] as string)));
      return copy;
    },
    async remove(key) {
      await Promise.all(filesOf(key).map((file) => fsp.rm(file, { force: true })));
    },
    async size(key) {
      return (await partsOf(key)).reduce((sum, part) => sum + part.end - part.start, 0);
    },
    async *listKeys(before) {
      const cutoff = before.getTime();
      for (const dayDir of await dayFolders(root)) {
        // A key's newest change among its files: a spliced blob's data link is old content
        // (the received file), its ctime tells when it was linked.
        const newest = new Map<string, number>();
        for (const name of await fsp.readdir(path.join(root, dayDir)).catch(() => [] as string[])) {
          const match = /^([0-9a-f-]{36}(?:\.\d{1,15})?)(?:\.head|\.data)?$/.exec(name);
          if (!match?.[1] || (name.endsWith('.head') || name.endsWith('.data')) !== match[1].includes('.'))
            continue;
          const stat = await fsp.lstat(path.join(root, dayDir, name)).catch(() => undefined);
          if (!stat?.isFile()) continue;
          const key = `${dayDir}/${match[1]}`;
          newest.set(key, Math.max(newest.get(key) ?? 0, stat.mtimeMs, stat.ctimeMs));
        }
        for (const [key, changed] of newest) if (changed < cutoff) yield key;
      }
    },
    async removeTemp(before) {
      let removed = 0;
      for (const name of await fsp.readdir(tmpDir)) {
        const file = path.join(tmpDir, name);
        const stat = await fsp.lstat(file).catch(() => undefined);
        if (!stat || Math.max(stat.mtimeMs, stat.ctimeMs) >= before.getTime()) continue;
        await fsp.rm(file, { force: true, recursive: true });
        removed++;
      }
      return removed;
    },
  };
}

/** The `YYYY/MM/DD` folders under the root (where keys live), oldest first. */
async function dayFolders(root: string): Promise<string[]> {
  const below = async (dir: string, pattern: RegExp) =>
    (await fsp.readdir(path.join(root, dir), { withFileTypes: true }).catch(() => []))
      .filter((entry) => entry.isDirectory() && pattern.test(entry.name))
      .map((entry) => (dir === '' ? entry.name : `${dir}/${entry.name}`))
      .sort();
  const days: string[] = [];
  for (const year of await below('', /^\d{4}$/))
    for (const month of await below(year, /^\d{2}$/)) days.push(...(await below(month, /^\d{2}$/)));
  return days;
}

/** A temp file this old was left by a process that stopped mid-write (a crash, a kill). */
const tempLeftOverMs = 24 * 3600_000;

/**
 * Removes what stopped processes left in the temp folder. Only old files: with split roles
 * (`--role ingest`) another process writes there at the same time.
 */
function sweepTemp(tmpDir: string): void {
  const before = Date.now() - tempLeftOverMs;
  for (const name of fs.readdirSync(tmpDir)) {
    const file = path.join(tmpDir, name);
    try {
      if (fs.lstatSync(file).mtimeMs < before) fs.rmSync(file, { force: true, recursive: true });
    } catch {} // gone meanwhile
  }
}

/**
 * Streams into a file, counting and hashing on the way, in writes of about 1 MiB: sockets hand
 * over 64 KiB chunks, and each write is a round trip to libuv's thread pool. Gathering them
 * (writev, no copy) takes a sixteenth of those round trips. Finishes after an fsync.
 */
class BlobFileWriter extends Writable {
  size = 0;
  private readonly hash = createHash('sha256');
  private handle?: fsp.FileHandle;
  private pending: Buffer[] = [];
  private pendingBytes = 0;

  constructor(
    private readonly file: string,
    private readonly maxBytes?: number,
  ) {
    super({ highWaterMark: 1 << 20 });
  }

  sha256(): string {
    return this.hash.digest('hex');
  }

  override _construct(done: (error?: Error | null) => void): void {
    fsp.open(this.file, 'w').then((handle) => {
      this.handle = handle;
      done();
    }, done);
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, done: (error?: Error | null) => void): void {
    this.size += chunk.length;
    if (this.maxBytes !== undefined && this.size > this.maxBytes) {
      done(new SizeLimitError(this.maxBytes));
      return;
    }
    this.hash.update(chunk);
    this.pending.push(chunk);
    this.pendingBytes += chunk.length;
    if (this.pendingBytes < 1 << 20) done();
    else this.flush().then(() => done(), done);
  }

  override _final(done: (error?: Error | null) => void): void {
    this.flush()
      .then(() => this.handle?.sync())
      .then(() => done(), done);
  }

  override _destroy(error: Error | null, done: (error?: Error | null) => void): void {
    const handle = this.handle;
    this.handle = undefined;
    if (!handle) {
      done(error);
      return;
    }
    handle.close().then(
      () => done(error),
      () => done(error),
    );
  }

  private async flush(): Promise<void> {
    const chunks = this.pending;
    this.pending = [];
    this.pendingBytes = 0;
    // writev may write less than asked (rare for files); write the rest until done.
    let rest = chunks;
    while (rest.length > 0 && this.handle) {
      const { bytesWritten } = await this.handle.writev(rest);
      rest = dropBytes(rest, bytesWritten);
    }
  }
}

function dropBytes(chunks: Buffer[], count: number): Buffer[] {
  let left = count;
  const rest: Buffer[] = [];
  for (const chunk of chunks) {
    if (left >= chunk.length) {
      left -= chunk.length;
    } else {
      rest.push(left > 0 ? chunk.subarray(left) : chunk);
      left = 0;
    }
  }
  return rest;
}
