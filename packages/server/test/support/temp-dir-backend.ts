import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  type ConnectionLogEntry,
  type IngestAccount,
  type IngestBackend,
  type IngestEntry,
  type IngestSession,
  type IngestSessionInfo,
  type IngestStat,
  IngestUserError,
  type UploadInfo,
} from '../../src/ingest/backend.ts';

/**
 * Test support only: an IngestBackend on a temp folder (the real one, with the database and
 * blob store, is the lead's). It records what the servers did so tests can check it, and it
 * refuses (and records) any path that would leave an account's folder.
 */

export interface RecordedSession {
  info: IngestSessionInfo;
  entries: ConnectionLogEntry[];
  logins: Array<{ username: string; ok: boolean; reason?: string }>;
  tls: boolean;
  ended: boolean;
}

export class TempDirBackend implements IngestBackend {
  readonly base = fs.mkdtempSync(path.join(os.tmpdir(), 'photorelay-ingest-'));
  readonly accountsDir = path.join(this.base, 'accounts');
  private readonly tmpDir = path.join(this.base, 'incoming');
  private readonly users = new Map<string, { password: string; account: IngestAccount }>();
  /** Recorded uploads, in order ("the transaction"). */
  readonly stored: Array<{ accountId: number; path: string; bytes: number; at: number; protocol: string }> =
    [];
  /** storeUpload calls that rejected (aborted or failed). */
  readonly discarded: Array<{ path: string; error: string }> = [];
  readonly events: string[] = [];
  readonly violations: string[] = [];
  readonly sessions: RecordedSession[] = [];
  readonly delivered = new Set<string>();
  storeDelayMs = 0;
  /** Rename onto an existing file fails (as on SFTP v3 servers), to test delete-then-rename. */
  renameOverwrites = false;
  openSessions = 0;
  maxOpenSessions = 0;

  constructor() {
    fs.mkdirSync(this.accountsDir, { recursive: true });
    fs.mkdirSync(this.tmpDir, { recursive: true });
  }

  addAccount(username: string, password: string, accountId: number): IngestAccount {
    const account = { accountId, projectId: accountId * 10, teamId: accountId * 100, username };
    this.users.set(username, { password, account });
    fs.mkdirSync(path.join(this.accountsDir, String(accountId)), { recursive: true });
    return account;
  }

  fileOf(accountId: number, relative: string): string {
    return path.join(this.accountsDir, String(accountId), relative);
  }

  async authenticate(username: string, password: string): Promise<IngestAccount | null> {
    const user = this.users.get(username);
    return user && user.password === password ? user.account : null;
  }

  async storeUpload(account: IngestAccount, relativePath: string, data: Readable, info: UploadInfo) {
    const target = this.inside(account, relativePath);
    const tmp = path.join(this.tmpDir, crypto.randomUUID());
    this.events.push(`store:start ${relativePath}`);
    try {
      await pipeline(data, fs.createWriteStream(tmp));
      const handle = await fs.promises.open(tmp, 'r');
      await handle.sync();
      await handle.close();
      if (this.storeDelayMs) await new Promise((resolve) => setTimeout(resolve, this.storeDelayMs));
      await fs.promises.mkdir(path.dirname(target), { recursive: true });
      await fs.promises.rename(tmp, target);
    } catch (err) {
      await fs.promises.rm(tmp, { force: true });
      this.discarded.push({ path: relativePath, error: err instanceof Error ? err.message : String(err) });
      this.events.push(`store:discarded ${relativePath}`);
      throw err;
    }
    const bytes = (await fs.promises.stat(target)).size;
    this.stored.push({
      accountId: account.accountId,
      path: relativePath,
      bytes,
      at: Date.now(),
      protocol: info.protocol,
    });
    this.events.push(`store:done ${relativePath}`);
    return { bytes };
  }

  async list(account: IngestAccount, relativeDir: string): Promise<IngestEntry[]> {
    const dir = this.inside(account, relativeDir);
    const names = await fs.promises.readdir(dir).catch(() => [] as string[]);
    return Promise.all(
      names.map(async (name) => {
        const s = await fs.promises.stat(path.join(dir, name));
        return { name, size: s.size, mtime: s.mtime, isDirectory: s.isDirectory() };
      }),
    );
  }

  async makeDirectory(account: IngestAccount, relativeDir: string): Promise<void> {
    this.events.push(`mkdir ${relativeDir}`);
    await fs.promises.mkdir(this.inside(account, relativeDir), { recursive: true });
  }

  async stat(account: IngestAccount, relativePath: string): Promise<IngestStat | null> {
    const s = await fs.promises.stat(this.inside(account, relativePath)).catch(() => null);
    return s ? { size: s.size, mtime: s.mtime, isDirectory: s.isDirectory() } : null;
  }

  async remove(account: IngestAccount, relativePath: string): Promise<void> {
    if (this.delivered.has(relativePath)) throw new IngestUserError('File already delivered');
    const file = this.inside(account, relativePath);
    const s = await fs.promises.stat(file).catch(() => null);
    if (!s || s.isDirectory()) throw new IngestUserError('No such file');
    this.events.push(`remove ${relativePath}`);
    await fs.promises.rm(file);
  }

  async rename(account: IngestAccount, from: string, to: string): Promise<void> {
    if (this.delivered.has(from)) throw new IngestUserError('File already delivered');
    const source = this.inside(account, from);
    const target = this.inside(account, to);
    if (!fs.existsSync(source)) throw new IngestUserError('No such file');
    if (!this.renameOverwrites && fs.existsSync(target)) throw new IngestUserError('Target exists');
    this.events.push(`rename ${from} ${to}`);
    await fs.promises.mkdir(path.dirname(target), { recursive: true });
    await fs.promises.rename(source, target);
  }

  sessionStarted(info: IngestSessionInfo): IngestSession {
    const recorded: RecordedSession = { info, entries: [], logins: [], tls: info.tls, ended: false };
    this.sessions.push(recorded);
    this.openSessions++;
    this.maxOpenSessions = Math.max(this.maxOpenSessions, this.openSessions);
    return {
      log: (entry) => recorded.entries.push(entry),
      login: (r) => recorded.logins.push({ username: r.username, ok: !!r.account, reason: r.reason }),
      tlsStarted: () => {
        recorded.tls = true;
      },
      end: () => {
        if (recorded.ended) return;
        recorded.ended = true;
        this.openSessions--;
      },
    };
  }

  /** Every file under `base`, relative, to prove nothing landed outside the accounts' folders. */
  allFiles(): string[] {
    return (fs.readdirSync(this.base, { recursive: true }) as string[])
      .filter((p) => fs.statSync(path.join(this.base, p)).isFile())
      .sort();
  }

  cleanup(): void {
    fs.rmSync(this.base, { recursive: true, force: true });
  }

  private inside(account: IngestAccount, relative: string): string {
    const root = path.join(this.accountsDir, String(account.accountId));
    const full = path.resolve(root, relative);
    if (full !== root && !full.startsWith(root + path.sep)) {
      this.violations.push(relative);
      throw new Error(`path escapes the account folder: ${relative}`);
    }
    return full;
  }
}
