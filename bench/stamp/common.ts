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

/**
 * Runs each method `rounds` times after `warmup` calls, in turns (the order reversed every other
 * round, so both see the same load): the CPU ms of every call, and of it the system's.
 */
export async function cpuInTurns(
  methods: Record<string, () => unknown>,
  warmup: number,
  rounds: number,
): Promise<Record<string, { cpu: number[]; system: number[] }>> {
  const names = Object.keys(methods);
  const times = Object.fromEntries(
    names.map((name) => [name, { cpu: [] as number[], system: [] as number[] }]),
  );
  for (const name of names) for (let i = 0; i < warmup; i++) await methods[name]?.();
  for (let round = 0; round < rounds; round++)
    for (const name of round % 2 ? names : [...names].reverse()) {
      const cpu = process.cpuUsage();
      await methods[name]?.();
      const used = process.cpuUsage(cpu);
      times[name]?.cpu.push((used.user + used.system) / 1000);
      times[name]?.system.push(used.system / 1000);
    }
  return times;
}

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
