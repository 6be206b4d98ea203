import crypto from 'node:crypto';
import type { Readable } from 'node:stream';
import { sql } from 'kysely';
import type { AppContext } from '../context.ts';
import { decryptSecret } from '../crypto/secrets.ts';
import { recordUpload } from '../modules/jobs/service.ts';
import * as projectQueries from '../modules/projects/queries.ts';
import type {
  ConnectionLogEntry,
  IngestAccount,
  IngestBackend,
  IngestEntry,
  IngestSession,
  IngestSessionInfo,
} from './backend.ts';
import { IngestUserError } from './backend.ts';

// What LIST shows of a folder: uploads of the last week (cameras look for their own files).
const listingDays = 7;
const sessionsKept = 500;

/** The ingest servers' view of projects: accounts, blob store, upload records, connection log. */
export function createProjectIngestBackend(ctx: AppContext): IngestBackend {
  const { db } = ctx;

  const latestUpload = (projectId: number, path: string) =>
    db
      .selectFrom('uploads')
      .select(['id', 'size', 'received_at', 'blob_key', 'processed_blob_key'])
      .where('project_id', '=', projectId)
      .where('path', '=', path)
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();

  /** A file may still be deleted or renamed while none of its jobs has started. */
  async function requireUndelivered(projectId: number, path: string) {
    const upload = await latestUpload(projectId, path);
    if (!upload) throw new IngestUserError('No such file');
    const started = await db
      .selectFrom('jobs')
      .select('id')
      .where('upload_id', '=', upload.id)
      .where('state', 'in', ['running', 'succeeded'])
      .limit(1)
      .executeTakeFirst();
    if (started) throw new IngestUserError('File already delivered');
    return upload;
  }

  return {
    async authenticate(username, password) {
      const project = await projectQueries.findProjectByUsername(db, username);
      if (!project) return null;
      const expected = Buffer.from(decryptSecret(ctx.config.secretKey, project.ingest_password_enc));
      const given = Buffer.from(password);
      if (expected.length !== given.length || !crypto.timingSafeEqual(expected, given)) return null;
      return { accountId: project.id, projectId: project.id, username };
    },

    async storeUpload(account, relativePath, data: Readable, info) {
      const blob = await ctx.blobs.write(data, { maxBytes: ctx.config.MAX_UPLOAD_BYTES });
      try {
        await db.transaction().execute(async (trx) => {
          const project = await trx
            .selectFrom('projects')
            .select(['id', 'team_id'])
            .where('id', '=', account.projectId)
            .executeTakeFirst();
          if (!project) throw new IngestUserError('Project no longer exists');
          await recordUpload(trx, {
            teamId: project.team_id,
            projectId: project.id,
            path: relativePath,
            size: blob.size,
            sha256: blob.sha256,
            blobKey: blob.key,
            protocol: info.protocol,
            remoteAddress: info.remoteAddress,
            chain: [],
            sourceUploadId: null,
          });
        });
      } catch (error) {
        await ctx.blobs.remove(blob.key);
        throw error;
      }
      ctx.wake.pipeline();
      return { bytes: blob.size };
    },

    async list(account, dir) {
      const prefix = dir === '' ? '' : `${dir}/`;
      const [uploads, dirs] = await Promise.all([
        db
          .selectFrom('uploads')
          .select(['path', 'size', 'received_at'])
          .where('project_id', '=', account.projectId)
          .where('received_at', '>', sql<Date>`now() - make_interval(days => ${listingDays})`)
          .where('path', 'like', `${escapeLike(prefix)}%`)
          .orderBy('id', 'desc')
          .limit(5000)
          .execute(),
        db
          .selectFrom('ingest_directories')
          .select(['path', 'created_at'])
          .where('project_id', '=', account.projectId)
          .where('path', 'like', `${escapeLike(prefix)}%`)
          .execute(),
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
      await db
        .insertInto('ingest_directories')
        .values(all.map((path) => ({ project_id: account.projectId, path })))
        .onConflict((oc) => oc.columns(['project_id', 'path']).doNothing())
        .execute();
    },

    async stat(account, path) {
      if (path === '') return { size: 0, mtime: new Date(), isDirectory: true };
      const file = await latestUpload(account.projectId, path);
      if (file) return { size: Number(file.size), mtime: new Date(file.received_at), isDirectory: false };
      const prefix = `${escapeLike(path)}/%`;
      const [dir, inner] = await Promise.all([
        db
          .selectFrom('ingest_directories')
          .select('created_at')
          .where('project_id', '=', account.projectId)
          .where('path', '=', path)
          .executeTakeFirst(),
        db
          .selectFrom('uploads')
          .select('received_at')
          .where('project_id', '=', account.projectId)
          .where('path', 'like', prefix)
          .limit(1)
          .executeTakeFirst(),
      ]);
      const at = dir?.created_at ?? inner?.received_at;
      return at ? { size: 0, mtime: new Date(at), isDirectory: true } : null;
    },

    async remove(account, path) {
      const upload = await requireUndelivered(account.projectId, path);
      await db.deleteFrom('uploads').where('id', '=', upload.id).execute();
      await ctx.blobs.remove(upload.blob_key);
      if (upload.processed_blob_key && upload.processed_blob_key !== upload.blob_key)
        await ctx.blobs.remove(upload.processed_blob_key);
    },

    async rename(account, from, to) {
      const upload = await requireUndelivered(account.projectId, from);
      await db
        .updateTable('uploads')
        .set({ path: to, filename: to.split('/').pop() ?? to })
        .where('id', '=', upload.id)
        .execute();
    },

    sessionStarted(info) {
      return connectionLogSession(ctx, info);
    },
  };
}

const escapeLike = (value: string) => value.replace(/[\\%_]/g, (c) => `\\${c}`);

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
      entries.push({ at: entry.at.toISOString(), kind: entry.kind, text: entry.text.slice(0, 500) });
    },
    login(result: { username: string; account: IngestAccount | null; reason?: string }) {
      username = result.username;
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
        await ctx.db
          .insertInto('ingest_sessions')
          .values({
            project_id: projectId,
            username,
            protocol,
            tls,
            remote_address: info.remoteAddress,
            login_result: loginResult,
            entries: JSON.stringify(entries),
            started_at: info.startedAt,
            ended_at: new Date(),
          })
          .execute();
        await sql`delete from ingest_sessions where project_id = ${projectId} and id <= (
          select id from ingest_sessions where project_id = ${projectId} order by id desc offset ${sessionsKept} limit 1)`.execute(
          ctx.db,
        );
      })().catch((error) => ctx.log.warn({ err: error }, 'connection log could not be written'));
    },
  };
}
