import type { Logger } from 'pino';
import ssh2, { type SFTPWrapper } from 'ssh2';
import { type IngestAccount, type IngestBackend, IngestUserError } from './backend.ts';
import { formatListLine } from './ftp-srv-internals.ts';
import { type DirHandle, type FileHandle, ROOT_STAT, toAttrs } from './sftp-handles.ts';
import type { ReorderBudget } from './sftp-reorder-budget.ts';
import { UploadSink, UploadTooLargeError } from './upload-sink.ts';
import { PathError, resolveVirtualPath, toClientPath } from './virtual-path.ts';

/**
 * The SFTP requests of one session, mapped onto the backend: OPEN (write only), WRITE,
 * CLOSE (answered OK only after the backend stored and recorded the file), FSTAT,
 * (F)SETSTAT (accepted, ignored: clients set times after uploading), OPENDIR/READDIR,
 * STAT/LSTAT, MKDIR, REMOVE, RENAME, REALPATH. No reading of files, no links, no RMDIR:
 * requests without a listener get OP_UNSUPPORTED from ssh2.
 *
 * Writes must arrive in order (every real client sends them so, even with many in flight);
 * small reorderings are buffered, rewriting earlier bytes is refused. What is buffered is bounded
 * per connection and for the whole process (ReorderBudget), and so are open handles: a client
 * cannot grow the server's memory by sending writes out of order on many handles.
 */

const { OPEN_MODE, STATUS_CODE } = ssh2.utils.sftp;

export interface SftpRequestsContext {
  backend: IngestBackend;
  account: IngestAccount;
  remoteAddress: string;
  maxUploadBytes: number;
  log: Logger;
  note(kind: 'command' | 'reply' | 'error' | 'info', text: string): void;
  touch(): void;
  /** The connection's budget for out-of-order writes (its parent: the process's). */
  reorder: ReorderBudget;
  /** Open file and folder handles of the connection (all its SFTP channels). */
  handles: { open: number; max: number };
  /** An upload that receives no data this long is discarded; a later CLOSE fails. */
  stallMs: number;
}

export class SftpRequests {
  private readonly handles = new Map<string, FileHandle | DirHandle>();
  private nextHandle = 1;

  constructor(
    private readonly sftp: SFTPWrapper,
    private readonly ctx: SftpRequestsContext,
  ) {
    sftp.on('OPEN', (id: number, path: string, flags: number) =>
      this.run(id, `OPEN ${path}`, () => this.open(id, path, flags)),
    );
    sftp.on('WRITE', (id: number, handle: Buffer, offset: number, data: Buffer) =>
      this.write(id, handle, offset, data),
    );
    sftp.on('CLOSE', (id: number, handle: Buffer) => this.run(id, null, () => this.close(id, handle)));
    sftp.on('FSTAT', (id: number, handle: Buffer) => this.run(id, null, async () => this.fstat(id, handle)));
    sftp.on('FSETSTAT', (id: number) => sftp.status(id, STATUS_CODE.OK));
    sftp.on('SETSTAT', (id: number) => sftp.status(id, STATUS_CODE.OK));
    sftp.on('OPENDIR', (id: number, path: string) =>
      this.run(id, `OPENDIR ${path}`, () => this.opendir(id, path)),
    );
    sftp.on('READDIR', (id: number, handle: Buffer) =>
      this.run(id, null, async () => this.readdir(id, handle)),
    );
    sftp.on('STAT', (id: number, path: string) => this.run(id, null, () => this.stat(id, path)));
    sftp.on('LSTAT', (id: number, path: string) => this.run(id, null, () => this.stat(id, path)));
    sftp.on('MKDIR', (id: number, path: string) => this.run(id, `MKDIR ${path}`, () => this.mkdir(id, path)));
    sftp.on('REMOVE', (id: number, path: string) =>
      this.run(id, `REMOVE ${path}`, () => this.remove(id, path)),
    );
    sftp.on('RENAME', (id: number, from: string, to: string) =>
      this.run(id, `RENAME ${from} ${to}`, () => this.rename(id, from, to)),
    );
    sftp.on('REALPATH', (id: number, path: string) =>
      this.run(id, null, async () => this.realpath(id, path)),
    );
    sftp.on('READ', (id: number) => sftp.status(id, STATUS_CODE.OP_UNSUPPORTED, 'Downloads are not offered'));
    sftp.on('close', () => this.abortAll('sftp channel closed'));
  }

  /** Uploads still receiving (a discarded one does not keep the connection from its idle timeout). */
  hasOpenUploads(): boolean {
    return [...this.handles.values()].some((h) => h.kind === 'file' && !h.failed);
  }

  /** Discards every unfinished upload (the client went away without CLOSE). */
  abortAll(reason: string): void {
    for (const [key, h] of this.handles) {
      if (h.kind === 'file') {
        clearTimeout(h.stall);
        h.sink.abort(new Error(reason));
        this.dropPending(h);
        this.ctx.note('error', `upload ${h.path} aborted: ${reason}`);
      }
      this.forget(key);
    }
  }

  /** Runs one request; turns errors into SFTP status replies with client-safe texts. */
  private run(id: number, logText: string | null, work: () => Promise<void>): void {
    this.ctx.touch();
    if (logText) this.ctx.note('command', logText);
    work().catch((err: unknown) => {
      const [code, message] = this.describe(err);
      if (logText) this.ctx.note('reply', message);
      this.sftp.status(id, code, message);
    });
  }

  private describe(err: unknown): [number, string] {
    if (err instanceof PathError) return [STATUS_CODE.PERMISSION_DENIED, err.message];
    if (err instanceof IngestUserError) return [STATUS_CODE.FAILURE, err.message];
    this.ctx.log.error({ err, accountId: this.ctx.account.accountId }, 'sftp request failed');
    return [STATUS_CODE.FAILURE, 'Operation failed; please try again'];
  }

  private resolve(path: string): string {
    // SFTP paths are absolute or relative to the home folder, which is the root.
    return resolveVirtualPath('', path);
  }

  private newHandle(h: FileHandle | DirHandle): Buffer {
    this.ctx.handles.open++;
    const buf = Buffer.alloc(4);
    buf.writeUInt32BE(this.nextHandle++);
    this.handles.set(buf.toString('hex'), h);
    return buf;
  }

  private forget(key: string): void {
    if (this.handles.delete(key)) this.ctx.handles.open--;
  }

  private checkHandleLimit(): void {
    if (this.ctx.handles.open >= this.ctx.handles.max)
      throw new IngestUserError(`Too many open handles (limit ${this.ctx.handles.max}); close some first`);
  }

  /** Frees what a handle holds for out-of-order writes. */
  private dropPending(h: FileHandle): void {
    this.ctx.reorder.release(h.pendingBytes);
    h.pending.clear();
    h.pendingBytes = 0;
  }

  private async open(id: number, path: string, flags: number): Promise<void> {
    this.checkHandleLimit();
    const rel = this.resolve(path);
    if (flags & OPEN_MODE.READ) throw new IngestUserError('Downloads are not offered');
    if (flags & OPEN_MODE.APPEND)
      throw new IngestUserError('Appending is not supported; upload the whole file');
    if (!(flags & OPEN_MODE.WRITE) || rel === '') throw new IngestUserError('Can only write files');
    // A full data disk refuses before any data comes (issue 30); SFTP v3 has no 'no space' status.
    const refused = this.ctx.backend.uploadsRefused?.();
    if (refused) throw new IngestUserError(refused);
    const handle: FileHandle = {
      kind: 'file',
      path: rel,
      offset: 0,
      pending: new Map(),
      pendingBytes: 0,
      held: [],
      sink: new UploadSink(
        (data) =>
          this.ctx.backend.storeUpload(this.ctx.account, rel, data, {
            protocol: 'sftp',
            remoteAddress: this.ctx.remoteAddress,
          }),
        this.ctx.maxUploadBytes,
        (err) => {
          this.ctx.log.error({ err, path: rel }, 'storeUpload failed during sftp transfer');
          handle.failed = 'Upload could not be stored; please try again';
          this.releaseHeld(handle);
        },
      ),
    };
    this.sftp.handle(id, this.newHandle(handle));
    this.watchStall(handle);
  }

  /**
   * (Re)starts the upload's stall timer. An upload that stalls (a camera that lost its network
   * mid-file, a client that hangs) was kept for minutes and a later CLOSE stored the partial
   * file; now it is discarded once no data came for `stallMs`, never delivered in part. While
   * WRITE replies are held back (the backend is the slow one) the upload is not stalled.
   */
  private watchStall(h: FileHandle): void {
    clearTimeout(h.stall);
    if (h.failed) return;
    h.stall = setTimeout(() => {
      if (h.failed) return;
      if (h.held.length > 0) return this.watchStall(h);
      const seconds = Math.round(this.ctx.stallMs / 1000);
      h.failed = `Upload stalled (no data for ${seconds} s) and was discarded; please upload the file again`;
      h.sink.abort(new Error(h.failed));
      this.dropPending(h);
      this.ctx.note('error', `upload ${h.path} discarded: no data for ${seconds} s`);
    }, this.ctx.stallMs);
    h.stall.unref();
  }

  private write(id: number, raw: Buffer, offset: number, data: Buffer): void {
    this.ctx.touch();
    const h = this.handles.get(raw.toString('hex'));
    if (h?.kind !== 'file') {
      this.sftp.status(id, STATUS_CODE.FAILURE, 'Invalid handle');
      return;
    }
    if (h.failed) {
      this.sftp.status(id, STATUS_CODE.FAILURE, h.failed);
      return;
    }
    if (data.length === 0) {
      this.sftp.status(id, STATUS_CODE.OK);
      return;
    }
    this.watchStall(h);
    try {
      if (offset > h.offset) {
        if (h.pending.has(offset)) throw new IngestUserError('Rewriting bytes is not supported');
        if (!this.ctx.reorder.take(data.length))
          throw new IngestUserError('Writes too far out of order (buffer limit reached)');
        h.pendingBytes += data.length;
        h.pending.set(offset, data);
        this.sftp.status(id, STATUS_CODE.OK);
        return;
      }
      if (offset < h.offset) throw new IngestUserError('Rewriting earlier bytes is not supported');
      let more = this.push(h, data);
      for (let next = h.pending.get(h.offset); next; next = h.pending.get(h.offset)) {
        h.pending.delete(h.offset);
        h.pendingBytes -= next.length;
        this.ctx.reorder.release(next.length);
        more = this.push(h, next);
      }
      if (more && h.held.length === 0) {
        this.sftp.status(id, STATUS_CODE.OK);
        return;
      }
      h.held.push(id);
      h.sink.onDrain(() => this.releaseHeld(h));
    } catch (err) {
      h.failed =
        err instanceof UploadTooLargeError
          ? `Exceeded storage allocation (limit ${err.maxBytes} bytes)`
          : String((err as Error).message);
      h.sink.abort(err instanceof Error ? err : new Error(String(err)));
      this.dropPending(h);
      this.ctx.note('error', `upload ${h.path}: ${h.failed}`);
      this.releaseHeld(h);
      this.sftp.status(id, STATUS_CODE.FAILURE, h.failed);
    }
  }

  private push(h: FileHandle, data: Buffer): boolean {
    h.offset += data.length;
    return h.sink.write(data);
  }

  private releaseHeld(h: FileHandle): void {
    if (h.held.length > 0) this.watchStall(h);
    for (const held of h.held.splice(0)) {
      if (h.failed) this.sftp.status(held, STATUS_CODE.FAILURE, h.failed);
      else this.sftp.status(held, STATUS_CODE.OK);
    }
  }

  private async close(id: number, raw: Buffer): Promise<void> {
    const key = raw.toString('hex');
    const h = this.handles.get(key);
    if (!h) throw new IngestUserError('Invalid handle');
    this.forget(key);
    if (h.kind === 'dir') {
      this.sftp.status(id, STATUS_CODE.OK);
      return;
    }
    clearTimeout(h.stall);
    this.ctx.note('command', `CLOSE ${h.path}`);
    if (!h.failed && h.pending.size > 0) h.failed = 'Upload incomplete: missing bytes';
    this.dropPending(h);
    if (h.failed) {
      h.sink.abort(new Error(h.failed));
      throw new IngestUserError(h.failed);
    }
    const result = await h.sink.finish().catch((err: unknown) => {
      this.ctx.log.error({ err, path: h.path }, 'storeUpload failed');
      throw new IngestUserError('Upload could not be stored; please try again');
    });
    this.ctx.note(
      'reply',
      result.stored ? `stored ${h.path} (${result.bytes} bytes)` : `empty file ${h.path} ignored`,
    );
    this.sftp.status(id, STATUS_CODE.OK);
  }

  private fstat(id: number, raw: Buffer): void {
    const h = this.handles.get(raw.toString('hex'));
    if (!h) throw new IngestUserError('Invalid handle');
    const stat = h.kind === 'dir' ? ROOT_STAT : { size: h.offset, mtime: new Date(), isDirectory: false };
    this.sftp.attrs(id, toAttrs(stat));
  }

  private async opendir(id: number, path: string): Promise<void> {
    this.checkHandleLimit();
    const rel = this.resolve(path);
    const stat = rel === '' ? ROOT_STAT : await this.ctx.backend.stat(this.ctx.account, rel);
    if (!stat?.isDirectory) {
      this.sftp.status(id, STATUS_CODE.NO_SUCH_FILE, 'No such directory');
      return;
    }
    const entries = await this.ctx.backend.list(this.ctx.account, rel);
    this.checkHandleLimit(); // again: other requests may have opened handles meanwhile
    this.sftp.handle(
      id,
      this.newHandle({
        kind: 'dir',
        sent: false,
        entries: entries.map((e) => ({
          filename: e.name,
          longname: formatListLine({ ...e, isDirectory: () => e.isDirectory }),
          attrs: toAttrs(e),
        })),
      }),
    );
  }

  private readdir(id: number, raw: Buffer): void {
    const h = this.handles.get(raw.toString('hex'));
    if (h?.kind !== 'dir') throw new IngestUserError('Invalid handle');
    if (h.sent || h.entries.length === 0) {
      this.sftp.status(id, STATUS_CODE.EOF);
      return;
    }
    h.sent = true;
    this.sftp.name(id, h.entries);
  }

  private async stat(id: number, path: string): Promise<void> {
    const rel = this.resolve(path);
    const stat = rel === '' ? ROOT_STAT : await this.ctx.backend.stat(this.ctx.account, rel);
    if (!stat) {
      this.sftp.status(id, STATUS_CODE.NO_SUCH_FILE, 'No such file');
      return;
    }
    this.sftp.attrs(id, toAttrs(stat));
  }

  private async mkdir(id: number, path: string): Promise<void> {
    const rel = this.resolve(path);
    if (rel === '') throw new IngestUserError('Directory already exists');
    await this.ctx.backend.makeDirectory(this.ctx.account, rel);
    this.ok(id);
  }

  private async remove(id: number, path: string): Promise<void> {
    const rel = this.resolve(path);
    if (rel === '') throw new IngestUserError('Cannot delete the home folder');
    await this.ctx.backend.remove(this.ctx.account, rel);
    this.ok(id);
  }

  private async rename(id: number, from: string, to: string): Promise<void> {
    const source = this.resolve(from);
    const target = this.resolve(to);
    if (source === '' || target === '') throw new IngestUserError('Cannot rename the home folder');
    await this.ctx.backend.rename(this.ctx.account, source, target);
    this.ok(id);
  }

  private realpath(id: number, path: string): void {
    const rel = this.resolve(path);
    const name = toClientPath(rel);
    this.sftp.name(id, [{ filename: name, longname: name, attrs: toAttrs(ROOT_STAT) }]);
  }

  private ok(id: number): void {
    this.ctx.note('reply', 'OK');
    this.sftp.status(id, STATUS_CODE.OK);
  }
}
