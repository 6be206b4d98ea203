// A stamp thread (worker_threads): runs the engine's work on one file's metadata, or stamps one
// whole file, at a time for stamp-threads.ts, which stops the thread when a file's metadata takes
// longer than its time limit.
import { parentPort, workerData } from 'node:worker_threads';
import { isMetadataError } from './errors.ts';
import type { ExtendedXmpChunk, JpegMetadata } from './jpeg.ts';
import { type FileStampResult, stampFileSync } from './stamp-file.ts';
import { type HeadStampResult, stampHeadSync } from './stamp-head.ts';
import { type StampedSegments, stampSegments } from './stamp-segments.ts';
import { builtSlot, type StampRequest, type ThreadReply } from './stamp-threads.ts';

// Buffers arrive as plain Uint8Arrays (structured clone): the engine wants Buffers.
const buffer = (bytes: Uint8Array): Buffer => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
const optional = (bytes: Uint8Array | undefined): Buffer | undefined => (bytes ? buffer(bytes) : undefined);

function asMetadata(meta: JpegMetadata): JpegMetadata {
  return {
    exif: optional(meta.exif),
    xmp: optional(meta.xmp),
    extendedXmp: meta.extendedXmp.map((chunk): ExtendedXmpChunk => ({ ...chunk, data: buffer(chunk.data) })),
    photoshop: optional(meta.photoshop),
    extraXmp: meta.extraXmp.map(buffer),
    legacyPhotoshop: optional(meta.legacyPhotoshop),
    warnings: meta.warnings,
  };
}

const port = parentPort;
if (!port) throw new Error('stamp-thread.ts runs as a worker thread');
const built = builtSlot(workerData as SharedArrayBuffer);
async function handle(request: StampRequest): Promise<StampedSegments | FileStampResult | HeadStampResult> {
  if ('meta' in request) return stampSegments(asMetadata(request.meta), request.template, request.options);
  const { id, template } = request;
  const madeIt = () => Atomics.store(built, 0, id);
  if ('head' in request) return stampHeadSync(request.head.input, template, request.options, madeIt);
  return stampFileSync(request.file.input, request.file.output, template, request.options, madeIt);
}

port.on('message', async (request: StampRequest) => {
  const { id } = request;
  let reply: ThreadReply;
  try {
    reply = { id, result: await handle(request) };
  } catch (error) {
    reply = isMetadataError(error)
      ? { id, error: { code: error.code, message: error.message } }
      : { id, error: { message: error instanceof Error ? (error.stack ?? error.message) : String(error) } };
  }
  port.postMessage(reply);
});
port.postMessage({ ready: true });
