// The picture scaler's own process (issue 25): sharp's memory is native, outside V8's heap, so
// neither a worker thread's resourceLimits nor the server's heap limit bounds it. Here a decode
// that runs away is killed with its process (picture-scaler.ts watches its memory and time), and
// the server only loses a thumbnail. One picture at a time, nothing cached between pictures.
import sharp from 'sharp';
import { frameDecodeBytes, readJpegFrame } from './frame-header.ts';
import type { ScaleReply, ScaleRequest, ScalerReady } from './protocol.ts';

sharp.cache(false);
sharp.concurrency(1);

const megabytes = (bytes: number) => `${Math.ceil(bytes / 1024 / 1024)} MB`;

/** Why the picture is not decoded, or undefined when its header fits the budget. */
async function overBudget(request: ScaleRequest): Promise<string | undefined> {
  const frame = await readJpegFrame(request.file);
  if (frame) {
    const bytes = frameDecodeBytes(frame);
    if (bytes <= request.decodeBytes) return undefined;
    const kind = frame.progressive ? 'progressive ' : '';
    return `its header claims ${frame.width} × ${frame.height} pixels in ${frame.components.length} components (${kind}JPEG): decoding it needs ${megabytes(bytes)}, more than the ${megabytes(request.decodeBytes)} allowed`;
  }
  // Other formats: libvips reads only the header here.
  const meta = await sharp(request.file).metadata();
  const bytesPerSample = /16|32|float|complex|double/.test(String(meta.depth)) ? 4 : 1;
  const bytes = (meta.width ?? 0) * (meta.height ?? 0) * (meta.channels ?? 4) * bytesPerSample;
  if (bytes <= request.decodeBytes) return undefined;
  return `its header claims ${meta.width} × ${meta.height} pixels (${meta.format}): decoding it needs ${megabytes(bytes)}, more than the ${megabytes(request.decodeBytes)} allowed`;
}

async function scale(request: ScaleRequest): Promise<ScaleReply> {
  const { id } = request;
  let refused: string | undefined;
  try {
    refused = await overBudget(request);
  } catch (error) {
    return { id, kind: 'unreadable', reason: (error as Error).message };
  }
  if (refused) return { id, kind: 'refused', reason: refused };
  try {
    const bytes = await sharp(request.file, { failOn: 'none', limitInputPixels: 200_000_000 })
      .rotate()
      .resize(request.edge, request.edge, { fit: 'inside', withoutEnlargement: true })
      .jpeg({ quality: request.quality })
      .toBuffer();
    return { id, kind: 'done', bytes };
  } catch (error) {
    return { id, kind: 'unreadable', reason: (error as Error).message };
  }
}

let work: Promise<unknown> = Promise.resolve();
process.on('message', (request: ScaleRequest) => {
  work = work.then(async () => process.send?.(await scale(request)));
});
// The server is gone: nothing to answer to.
process.on('disconnect', () => process.exit(0));
process.send?.({ kind: 'ready' } satisfies ScalerReady);
