// Issue 25: a picture is judged by its JPEG frame header (SOFn) before anything decodes it. An
// 800-byte progressive CMYK file claiming 14000 × 14000 made libjpeg allocate 1.5 GB of
// coefficient buffers before reading a single scan; its header alone tells what it would cost.
import fs from 'node:fs/promises';

export interface JpegFrame {
  width: number;
  height: number;
  /** Bits per sample: 8, or 12/16 for extended and lossless files. */
  precision: number;
  /** Horizontal and vertical sampling factor of each component (3 for YCbCr, 4 for CMYK). */
  components: { h: number; v: number }[];
  /** SOF2/6/10/14: every coefficient of the whole image is held until the last scan. */
  progressive: boolean;
}

const isSof = (marker: number) =>
  marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
const isProgressiveSof = (marker: number) =>
  marker === 0xc2 || marker === 0xc6 || marker === 0xca || marker === 0xce;
/** Markers without a length: TEM, RST0-7 (SOI is read first). */
const isStandalone = (marker: number) => marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7);

/**
 * The frame header of the JPEG file at `file`, read segment by segment (APPn bodies are skipped,
 * not read); undefined when the file is no JPEG. Throws when a JPEG ends or breaks before its frame.
 */
export async function readJpegFrame(file: string): Promise<JpegFrame | undefined> {
  const handle = await fs.open(file, 'r');
  try {
    const head = Buffer.alloc(4);
    const read = async (position: number, length: number) => {
      const buffer = length <= 4 ? head : Buffer.alloc(length);
      const { bytesRead } = await handle.read(buffer, 0, length, position);
      if (bytesRead < length) throw new Error('the file ends before its frame header');
      return buffer;
    };
    const { bytesRead } = await handle.read(head, 0, 2, 0);
    if (bytesRead < 2 || head[0] !== 0xff || head[1] !== 0xd8) return undefined;
    let position = 2;
    // A real file has a few dozen segments before its frame; a file of empty ones is refused.
    for (let segments = 0; segments < 10_000; segments++) {
      const marker = await read(position, 2);
      if (marker[0] !== 0xff) throw new Error('the file breaks before its frame header');
      const code = marker[1] ?? 0;
      if (code === 0xff) {
        position += 1; // fill byte
        continue;
      }
      if (isStandalone(code)) {
        position += 2;
        continue;
      }
      if (code === 0xda || code === 0xd9) throw new Error('the file has no frame header');
      const length = (await read(position + 2, 2)).readUInt16BE(0);
      if (length < 2) throw new Error('the file breaks before its frame header');
      if (isSof(code)) return parseFrame(await read(position + 4, length - 2), isProgressiveSof(code));
      position += 2 + length;
    }
    throw new Error('the file has no frame header');
  } finally {
    await handle.close();
  }
}

function parseFrame(body: Buffer, progressive: boolean): JpegFrame {
  if (body.length < 6) throw new Error('the frame header is cut short');
  const count = body[5] ?? 0;
  if (count < 1 || body.length < 6 + count * 3) throw new Error('the frame header is cut short');
  const components = [];
  for (let i = 0; i < count; i++) {
    const sampling = body[6 + i * 3 + 1] ?? 0;
    components.push({ h: Math.max(1, sampling >> 4), v: Math.max(1, sampling & 0x0f) });
  }
  return {
    precision: body[0] ?? 8,
    height: body.readUInt16BE(1),
    width: body.readUInt16BE(3),
    components,
    progressive,
  };
}

/**
 * What decoding the whole frame holds at most (bytes): a progressive file keeps a 2-byte
 * coefficient for every sample of every component until its last scan; a sequential one is
 * counted as its decoded samples (1 byte each, 2 above 8 bits), the most a full decode holds.
 * Components are counted at their own sampling (4:2:0 chroma is a quarter each) and padded to
 * whole 8 × 8 blocks, as libjpeg allocates them.
 */
export function frameDecodeBytes(frame: JpegFrame): number {
  const hMax = Math.max(...frame.components.map((c) => c.h));
  const vMax = Math.max(...frame.components.map((c) => c.v));
  // A height of 0 (defined later by a DNL marker) is counted as the largest a header can claim.
  const height = frame.height || 65_535;
  let samples = 0;
  for (const c of frame.components) {
    const blocksWide = Math.ceil(Math.ceil((frame.width * c.h) / hMax) / 8);
    const blocksHigh = Math.ceil(Math.ceil((height * c.v) / vMax) / 8);
    samples += blocksWide * blocksHigh * 64;
  }
  const bytesPerSample = frame.progressive ? 2 : frame.precision > 8 ? 2 : 1;
  return samples * bytesPerSample;
}
