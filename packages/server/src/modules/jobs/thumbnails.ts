// Issue 16 "pictures, not only rows": a small thumbnail of each upload for the job log and the
// dashboard, a larger preview with the stamped caption and credit for the job detail. Made
// lazily on the first request (the ingest path is not slowed), once per upload, and stored with
// it: retention and project deletion remove them with the upload's files.
import { Readable } from 'node:stream';
import { AppError } from '@photorelay/contract/errors';
import { exifThumbnail } from '@photorelay/xmp/exif-thumbnail';
import { readHead } from '@photorelay/xmp/parsed-metadata';
import { readJpegMetadata } from '@photorelay/xmp/read-metadata';
import sharp from 'sharp';
import type { AppContext } from '../../context.ts';
import { loadAccess, requirePermission } from '../folders/permissions.ts';
import type { Member } from '../teams/service.ts';
import * as q from './thumbnail-queries.ts';

export type PictureSize = 'small' | 'large';
const edge: Record<PictureSize, number> = { small: 160, large: 960 };

// Decoding a camera's 24-megapixel JPEG takes a core for a moment: one at a time per process.
sharp.concurrency(1);
let queue: Promise<unknown> = Promise.resolve();
const oneAtATime = <T>(work: () => Promise<T>): Promise<T> => {
  const next = queue.then(work, work);
  queue = next.catch(() => {});
  return next;
};

async function readablePicture(ctx: AppContext, member: Member, uploadId: number) {
  const upload = await q.findUploadPicture(ctx.db, member.teamId, uploadId);
  if (!upload) throw new AppError('NotFound');
  requirePermission(await loadAccess(ctx.db, member), upload.folder_id, 'read');
  return upload;
}

/** The camera's embedded thumbnail when there is one (small only), else the picture scaled down. */
async function makePicture(ctx: AppContext, source: string, size: PictureSize): Promise<Buffer | null> {
  if (size === 'small') {
    const head = await readHead(ctx.blobs.read(source)).catch(() => undefined);
    const embedded = head?.exif && exifThumbnail(head.exif);
    if (embedded) return embedded;
  }
  return oneAtATime(() =>
    ctx.blobs.withLocalFile(source, (file) =>
      sharp(file, { failOn: 'none', limitInputPixels: 200_000_000 })
        .rotate()
        .resize(edge[size], edge[size], { fit: 'inside', withoutEnlargement: true })
        .jpeg({ quality: size === 'small' ? 70 : 80 })
        .toBuffer(),
    ),
  ).catch(() => null);
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
