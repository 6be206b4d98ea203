// What the stamping benchmarks share: the sample images, their command-line options, the median,
// and a sample's metadata as the engine reads it.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { JpegMetadata } from '../../packages/xmp/src/jpeg.ts';
import { rewriteJpeg } from '../../packages/xmp/src/jpeg.ts';

export const images = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../shared/data/images',
);

/** The value after `--name` on the command line, or `fallback`. */
export const textOption = (name: string, fallback: string): string => {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 ? (process.argv[index + 1] ?? fallback) : fallback;
};
export const option = (name: string, fallback: number): number => Number(textOption(name, String(fallback)));

export const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};

/** The metadata segments of a JPEG's bytes, as the engine finds them before stamping. */
export async function jpegMetadataOf(bytes: Buffer): Promise<JpegMetadata> {
  let meta: JpegMetadata | undefined;
  await rewriteJpeg([bytes], { write: () => undefined }, (found) => {
    meta = found;
    return [];
  });
  if (!meta) throw new Error('no metadata');
  return meta;
}
