import path from 'node:path/posix';
import type { DestinationPool } from '../adapters/destinations/pool.ts';
import { blobSha256 } from '../adapters/storage/blob-store.ts';
import type { AppContext } from '../context.ts';
import { decryptSecret } from '../crypto/secrets.ts';
import { destinationGoneReasons } from './end-waiting.ts';
import { type ClaimedJob, markJobSucceeded } from './queue.ts';
import { recordUpload } from './record-upload.ts';

/** A failure that retrying cannot fix (the destination is gone). */
export class PermanentDeliveryError extends Error {}

/**
 * Sends one job's file to its FTP/FTPS/SFTP server; resolves with details for the job log.
 * `fresh`: on a new connection, not a pooled one (the retry after a connection broke).
 */
export async function deliverToServer(
  ctx: AppContext,
  pool: DestinationPool,
  job: ClaimedJob,
  { fresh = false }: { fresh?: boolean } = {},
) {
  const { server } = job;
  if (!server) throw new PermanentDeliveryError(destinationGoneReasons.deleted);
  if (!server.linked) throw new PermanentDeliveryError(destinationGoneReasons.removed);
  // The project's override path, else the server's path, plus the folder the camera uploaded into.
  const base = server.overridePath ?? server.path;
  const subfolder = path.dirname(job.path) === '.' ? '' : path.dirname(job.path);
  const remoteDir = [base.replace(/\/+$/, ''), subfolder].filter((p) => p !== '').join('/');
  const settings = {
    protocol: server.protocol,
    host: server.host,
    port: server.port ?? undefined,
    username: server.username,
    password: decryptSecret(ctx.config.secretKey, server.passwordEnc),
    allowPrivateNetworks: ctx.config.ALLOW_PRIVATE_NETWORKS,
  };
  const result = await pool.use(
    { id: server.id, settings, maxConnections: server.maxConnections },
    (client) =>
      // A stamped file goes as its head and the received file's image data, never copied into one.
      ctx.blobs.withLocalParts(job.processedBlobKey, (parts) =>
        client.upload(parts, remoteDir, job.filename, { tempTag: `job${job.id}` }),
      ),
    { fresh },
  );
  return { remoteDir, bytes: result.bytes, ms: result.ms };
}

/**
 * Delivers to another project: the processed file becomes a new upload there (its metadata,
 * scripts and destinations apply). Recording it and finishing this job is one transaction.
 */
export async function deliverToProject(ctx: AppContext, job: ClaimedJob, workerId: string, started: number) {
  // The destination's upload carries the file's hash (its duplicate check); a stamped file has
  // none yet (stamping.ts).
  const sha256 = job.processedSha256 ?? (await blobSha256(ctx.blobs, job.processedBlobKey));
  const blobKey = await ctx.blobs.duplicate(job.processedBlobKey);
  try {
    await ctx.db.transaction().execute(async (trx) => {
      const recorded = await recordUpload(trx, {
        projectId: job.destProjectId ?? -1,
        // Under the name a script gave it (file.name), in the camera's folder.
        path: path.dirname(job.path) === '.' ? job.filename : `${path.dirname(job.path)}/${job.filename}`,
        size: job.processedSize,
        sha256,
        blobKey,
        protocol: 'project',
        remoteAddress: null,
        chain: job.chain,
        sourceUploadId: job.uploadId,
      });
      if (!recorded) throw new PermanentDeliveryError('The destination project was deleted');
      const done = await markJobSucceeded(
        trx,
        job,
        workerId,
        Date.now() - started,
        { project: job.destProjectId },
        {
          startedAt: new Date(started),
          durationMs: Date.now() - started,
          bytes: job.processedSize,
          error: null,
        },
      );
      if (!done) throw new Error('lease lost');
    });
  } catch (error) {
    await ctx.blobs.remove(blobKey);
    throw error;
  }
  ctx.wake.pipeline('uploads');
}
