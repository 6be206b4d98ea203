import crypto from 'node:crypto';
import type { Readable } from 'node:stream';
import type { AppContext } from '../context.ts';
import { decryptSecret } from '../crypto/secrets.ts';
import * as projectQueries from '../modules/projects/queries.ts';
import { recordUpload } from '../pipeline/record-upload.ts';
import { isStorageFull } from '../pipeline/storage-full.ts';
import type {
  ConnectionLogEntry,
  IngestAccount,
  IngestBackend,
  IngestEntry,
  IngestSession,
  IngestSessionInfo,
} from './backend.ts';
import { diskFullMessage, IngestUserError, storableText } from './backend.ts';
import * as q from './queries.ts';

// What LIST shows of a folder: uploads of the last week (cameras look for their own files).
const listingDays = 7;
const sessionsKept = 500;

/** The ingest servers' view of projects: accounts, blob store, upload records, connection log. */
export function createProjectIngestBackend(ctx: AppContext): IngestBackend {
  const { db } = ctx;

  /** A file may still be deleted or renamed while none of its jobs has started. */
  async function requireUndelivered(projectId: number, path: string) {
    const upload = await q.findLatestUpload(db, projectId, path);
    if (!upload) throw new IngestUserError('No such file');
    if (await q.hasStartedDelivery(db, upload.id)) throw new IngestUserError('File already delivered');
    return upload;
  }

  return {
    async authenticate(username, password) {
      // A name the database cannot even hold (NUL, lone surrogate) is no account's.
      if (storableText(username) !== username) return null;
      const project = await projectQueries.findProjectByUsername(db, username);
      if (!project) return null;
      const expected = Buffer.from(decryptSecret(ctx.config.secretKey, project.ingest_password_enc));
      const given = Buffer.from(password);
      if (expected.length !== given.length || !crypto.timingSafeEqual(expected, given)) return null;
      return { accountId: project.id, projectId: project.id, teamId: project.team_id, username };
    },

    async accountExists(username) {
      if (storableText(username) !== username) return false;
      return (await projectQueries.findProjectByUsername(db, username)) !== undefined;
    },

    uploadsRefused: () => (ctx.disk.state().full ? diskFullMessage : null),

    async storeUpload(account, relativePath, data: Readable, info) {
      const blob = await ctx.blobs.write(data, { maxBytes: ctx.config.MAX_UPLOAD_BYTES }).catch((error) => {
        // The next upload is refused before its data comes, and readiness says why (issue 30).
        if (isStorageFull(error)) ctx.disk.noteWriteFailed();
        throw error;
      });
      ctx.disk.noteWriteSucceeded();
      // One statement records the upload, its counters and its jobs: only then is it acknowledged.
      // A file that was not recorded (an error, or its project is gone) is not kept.
      let recorded: Awaited<ReturnType<typeof recordUpload>>;
      try {
        recorded = await recordUpload(db, {
          projectId: account.projectId,
          path: relativePath,
          size: blob.size,
          sha256: blob.sha256,
          blobKey: blob.key,
          protocol: info.protocol,
          remoteAddress: info.remoteAddress,
          chain: [],
          sourceUploadId: null,
        });
      } finally {
        if (!recorded) await ctx.blobs.remove(blob.key);
      }
      if (!recorded) throw new IngestUserError('Project no longer exists');
      ctx.wake.pipeline('uploads');
      return { bytes: blob.size };
    },

    async list(account, dir) {
      const prefix = dir === '' ? '' : `${dir}/`;
      const [uploads, dirs] = await Promise.all([
        q.listRecentUploads(db, account.projectId, prefix, listingDays),
        q.listDirectories(db, account.projectId, prefix),
      ]);
      const entries = new Map<string, IngestEntry>();
      for (const d of dirs) {
        const name = d.path.slice(prefix.length).split('/')[0];
        if (name && !entries.has(name))
          entries.set(name, { name, size: 0, mtime: new Date(d.created_at), isDirectory: true });
      }
      for (const u of uploads) {
        const rest = u.path.slice(prefix.length).split('/');
        const name = rest[0];
        if (!name || entries.has(name)) continue;
        entries.set(name, {
          name,
          size: rest.length > 1 ? 0 : Number(u.size),
          mtime: new Date(u.received_at),
          isDirectory: rest.length > 1,
        });
      }
      return [...entries.values()].sort((a, b) => a.name.localeCompare(b.name));
    },

    async makeDirectory(account, dir) {
      const parts = dir.split('/');
      const all = parts.map((_, i) => parts.slice(0, i + 1).join('/'));
      await q.insertDirectories(db, account.projectId, all);
    },

    async stat(account, path) {
      if (path === '') return { size: 0, mtime: new Date(), isDirectory: true };
      const file = await q.findLatestUpload(db, account.projectId, path);
      if (file) return { size: Number(file.size), mtime: new Date(file.received_at), isDirectory: false };
      const [dir, inner] = await Promise.all([
        q.findDirectory(db, account.projectId, path),
        q.findUploadInside(db, account.projectId, path),
      ]);
      const at = dir?.created_at ?? inner?.received_at;
      return at ? { size: 0, mtime: new Date(at), isDirectory: true } : null;
    },

    async remove(account, path) {
      const upload = await requireUndelivered(account.projectId, path);
      await q.deleteUpload(db, upload.id);
      await ctx.blobs.remove(upload.blob_key);
      if (upload.processed_blob_key && upload.processed_blob_key !== upload.blob_key)
        await ctx.blobs.remove(upload.processed_blob_key);
    },

    async rename(account, from, to) {
      const upload = await requireUndelivered(account.projectId, from);
      await q.renameUpload(db, upload.id, to);
    },

    sessionStarted(info) {
      return connectionLogSession(ctx, info);
    },
  };
}

/** Buffers one connection's log and writes it when the connection ends (pruned to the last 500 per project). */
function connectionLogSession(ctx: AppContext, info: IngestSessionInfo): IngestSession {
  const entries: Array<{ at: string; kind: string; text: string }> = [];
  let projectId: number | null = null;
  let username: string | null = null;
  let loginResult: string | null = null;
  let tls = info.tls;
  let protocol: string = info.protocol;
  return {
    log(entry: ConnectionLogEntry) {
      entries.push({
        at: entry.at.toISOString(),
        kind: entry.kind,
        text: storableText(entry.text.slice(0, 500)),
      });
    },
    login(result: { username: string; account: IngestAccount | null; reason?: string }) {
      username = storableText(result.username.slice(0, 200));
      loginResult = result.account ? 'ok' : (result.reason ?? 'refused');
      if (result.account) projectId = result.account.projectId;
    },
    tlsStarted() {
      tls = true;
      protocol = 'ftps';
    },
    end() {
      void (async () => {
        // A wrong password for a real project account is shown to that project's operators too.
        if (projectId === null && username) {
          projectId = (await projectQueries.findProjectByUsername(ctx.db, username))?.id ?? null;
        }
        if (projectId === null) return;
        await q.insertIngestSession(
          ctx.db,
          {
            project_id: projectId,
            username,
            protocol,
            tls,
            remote_address: info.remoteAddress,
            login_result: loginResult,
            entries: JSON.stringify(entries),
            started_at: info.startedAt,
            ended_at: new Date(),
          },
          sessionsKept,
        );
      })().catch((error) => ctx.log.warn({ err: error }, 'connection log could not be written'));
    },
  };
}
