// Issue 16 "pictures, not only rows": a small thumbnail of each upload for the job log and the
// dashboard, a larger preview with the stamped caption and credit for the job detail. Made
// lazily on the first request (the ingest path is not slowed), once per upload, and stored with
// it: retention and project deletion remove them with the upload's files.
import { Readable } from 'node:stream';
import { AppError } from '@photorelay/contract/errors';
import { exifThumbnail } from '@photorelay/xmp/exif-thumbnail';
import { readHead } from '@photorelay/xmp/parsed-metadata';
import { readJpegMetadata } from '@photorelay/xmp/read-metadata';
import { PictureRefusedError } from '../../adapters/pictures/picture-scaler.ts';
import type { AppContext } from '../../context.ts';
import { loadAccess, requirePermission } from '../folders/permissions.ts';
import type { Member } from '../teams/service.ts';
import * as q from './thumbnail-queries.ts';

export type PictureSize = 'small' | 'large';
const edge: Record<PictureSize, number> = { small: 160, large: 960 };
const quality: Record<PictureSize, number> = { small: 70, large: 80 };

// Pictures whose decode was refused or killed (issue 25): the job log and "My pictures today"
// ask for thumbnails by themselves, so a bomb is judged once per process, not at every look.
const refusedPictures = new Map<string, string>();
const refusedKept = 1000;

async function readablePicture(ctx: AppContext, member: Member, uploadId: number) {
  const upload = await q.findUploadPicture(ctx.db, member.teamId, uploadId);
  if (!upload) throw new AppError('NotFound');
  requirePermission(await loadAccess(ctx.db, member), upload.folder_id, 'read');
  return upload;
}

/**
 * The camera's embedded thumbnail when there is one (small only), else the picture scaled down
 * in the picture scaler's process; null when the file is no picture. A picture too large to
 * decode, or whose decode overran, is a PictureRefused error with the reason.
 */
async function makePicture(ctx: AppContext, source: string, size: PictureSize): Promise<Buffer | null> {
  if (size === 'small') {
    const head = await readHead(ctx.blobs.read(source)).catch(() => undefined);
    const embedded = head?.exif && exifThumbnail(head.exif);
    if (embedded) return embedded;
  }
  const refused = refusedPictures.get(source);
  if (refused) throw new AppError('PictureRefused', `The picture is not shown: ${refused}`);
  try {
    return await ctx.blobs.withLocalFile(source, (file) =>
      ctx.pictures.scale(file, { edge: edge[size], quality: quality[size] }),
    );
  } catch (error) {
    if (!(error instanceof PictureRefusedError)) {
      ctx.log.warn({ err: error, source }, 'making a thumbnail failed');
      return null;
    }
    if (refusedPictures.size >= refusedKept)
      refusedPictures.delete(refusedPictures.keys().next().value ?? '');
    refusedPictures.set(source, error.reason);
    ctx.log.info({ source, reason: error.reason }, 'picture refused');
    throw new AppError('PictureRefused', `The picture is not shown: ${error.reason}`);
  }
}

/**
 * The JPEG bytes of an upload's thumbnail or preview, made now if it has none yet; null when the
 * file is no picture sharp can read (the page shows an icon instead).
 */
export async function uploadPicture(ctx: AppContext, member: Member, uploadId: number, size: PictureSize) {
  const upload = await readablePicture(ctx, member, uploadId);
  const stored = size === 'small' ? upload.thumbnail_blob_key : upload.preview_blob_key;
  if (stored) return ctx.blobs.read(stored);
  // The stamped file when there is one: the picture as it went out.
  const bytes = await makePicture(ctx, upload.processed_blob_key ?? upload.blob_key, size);
  if (!bytes) return null;
  const blob = await ctx.blobs.write(Readable.from([bytes]));
  if (!(await q.storeUploadPicture(ctx.db, upload.id, size, blob.key))) await ctx.blobs.remove(blob.key);
  return Readable.from([bytes]);
}

const firstText = (values: { propertytypeids: string; value: string; lang?: string }[], id: string) =>
  values.find((v) => v.propertytypeids === id && (v.lang ?? 'x-default') === 'x-default')?.value ??
  values.find((v) => v.propertytypeids === id)?.value ??
  null;

/** The job detail's words under the picture: the caption and credit as stamped into the file sent. */
export async function uploadCaption(ctx: AppContext, member: Member, uploadId: number) {
  const upload = await readablePicture(ctx, member, uploadId);
  const metadata = await readJpegMetadata(ctx.blobs.read(upload.processed_blob_key ?? upload.blob_key)).catch(
    () => undefined,
  );
  return {
    filename: upload.filename,
    caption: metadata ? firstText(metadata.values, 'description') : null,
    credit: metadata ? firstText(metadata.values, 'creditLine') : null,
  };
}
