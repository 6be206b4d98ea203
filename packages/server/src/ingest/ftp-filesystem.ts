import type { Logger } from 'pino';
import { type IngestAccount, type IngestBackend, type IngestStat, IngestUserError } from './backend.ts';
import { PathError, resolveVirtualPath, splitPath, toClientPath } from './virtual-path.ts';

/**
 * ftp-srv's FileSystem contract (duck-typed: it calls these methods on `connection.fs`),
 * mapped onto the backend. One instance per logged-in connection; it holds the working
 * folder. Errors thrown here become "550 <message>", so only client-safe texts leave: path
 * errors, IngestUserError texts, and a generic text for anything else (detail to the log).
 * STOR does not come through here (see ftp-upload.ts); RETR, STOU, SITE and RMD are
 * blacklisted in ftp-server.ts.
 */

/** The stat shape ftp-srv's LIST/STAT formatter ('ls' format) reads. */
export interface FtpStat {
  name: string;
  size: number;
  mtime: Date;
  isDirectory(): boolean;
}

function toFtpStat(name: string, s: IngestStat): FtpStat {
  return { name, size: s.isDirectory ? 0 : s.size, mtime: s.mtime, isDirectory: () => s.isDirectory };
}

export class IngestFileSystem {
  /** Root-relative working folder ('' = root). */
  cwd = '';

  constructor(
    private readonly backend: IngestBackend,
    private readonly account: IngestAccount,
    private readonly log: Logger,
  ) {}

  /** Resolves a client path; PathError texts are safe to show. */
  resolve(clientPath: string | null | undefined): string {
    return resolveVirtualPath(this.cwd, clientPath);
  }

  currentDirectory(): string {
    return toClientPath(this.cwd);
  }

  async get(fileName: string): Promise<FtpStat> {
    return this.guard(async () => {
      const rel = this.resolve(fileName);
      const stat =
        rel === ''
          ? { size: 0, mtime: new Date(), isDirectory: true }
          : await this.backend.stat(this.account, rel);
      if (!stat) throw new IngestUserError('No such file or directory');
      return toFtpStat(splitPath(rel)[1] || '/', stat);
    });
  }

  async list(path = '.'): Promise<FtpStat[]> {
    return this.guard(async () => {
      const entries = await this.backend.list(this.account, this.resolve(path));
      return entries.map((e) => toFtpStat(e.name, e));
    });
  }

  async chdir(path = '.'): Promise<string> {
    return this.guard(async () => {
      const rel = this.resolve(path);
      if (rel !== '') {
        const stat = await this.backend.stat(this.account, rel);
        if (!stat?.isDirectory) throw new IngestUserError('No such directory');
      }
      this.cwd = rel;
      return toClientPath(rel);
    });
  }

  async mkdir(path: string): Promise<string> {
    return this.guard(async () => {
      const rel = this.resolve(path);
      if (rel === '') throw new IngestUserError('Directory already exists');
      await this.backend.makeDirectory(this.account, rel);
      return toClientPath(rel);
    });
  }

  async delete(path: string): Promise<void> {
    return this.guard(async () => {
      const rel = this.resolve(path);
      if (rel === '') throw new IngestUserError('Cannot delete the home folder');
      await this.backend.remove(this.account, rel);
    });
  }

  async rename(from: string, to: string): Promise<void> {
    return this.guard(async () => {
      const source = this.resolve(from);
      const target = this.resolve(to);
      if (source === '' || target === '') throw new IngestUserError('Cannot rename the home folder');
      await this.backend.rename(this.account, source, target);
    });
  }

  write(): never {
    throw new IngestUserError('Not supported');
  }

  read(): never {
    throw new IngestUserError('Downloads are not offered');
  }

  chmod(): never {
    throw new IngestUserError('Not supported');
  }

  getUniqueName(): never {
    throw new IngestUserError('Not supported');
  }

  private async guard<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (err) {
      if (err instanceof PathError || err instanceof IngestUserError) throw err;
      this.log.error({ err, accountId: this.account.accountId }, 'ingest backend failed');
      throw new Error('Requested action failed; please try again');
    }
  }
}
