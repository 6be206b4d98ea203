// The metadata writer as the server uses it: a project's template from the database, the
// team's stamping options from its config files, and a blob stamped into a new blob.
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { type HeadStampResult, type StampOptions, stampJpegHead, type Template } from '@photorelay/xmp/index';
import { endsInEoi } from '@photorelay/xmp/stamp-io';
import { z } from 'zod';
import type { FilePart } from '../../adapters/storage/file-parts.ts';
import type { AppContext } from '../../context.ts';
import type { Db } from '../../db/kysely.ts';
import * as configFiles from '../configfiles/queries.ts';
import * as q from './queries.ts';

export const codesFile = 'codes.json';
export const photographersFile = 'photographers.json';

export interface ProjectTemplate {
  template: Template;
  /** Properties whose mode is not off: what stamping will change. */
  active: number;
}

export async function loadTemplate(db: Db, teamId: number, projectId: number): Promise<ProjectTemplate> {
  const [values, modes] = await Promise.all([
    q.listValues(db, teamId, projectId),
    q.listModes(db, teamId, projectId),
  ]);
  return {
    template: {
      modes: Object.fromEntries(modes.map((m) => [m.property_id, m.mode])),
      values: values.map((v) => ({
        propertytypeids: v.propertytypeids,
        value: v.value,
        position: v.position,
        lang: v.lang,
      })),
    },
    active: modes.filter((m) => m.mode !== 'off').length,
  };
}

// Photo Mechanic style code replacements: {"gb12": "Gareth Bale"} or columns {"gb12": ["Gareth Bale", "Wales"]}.
const codesSchema = z.record(
  z.string().min(1).max(64),
  z.union([z.string().max(1024), z.array(z.string().max(1024)).min(1).max(32)]),
);
// Camera body serial -> photographer name, for {photographer}.
const photographersSchema = z.record(z.string().min(1).max(128), z.string().max(256));

async function readJsonFile<T>(
  db: Db,
  teamId: number,
  name: string,
  schema: z.ZodType<T>,
  warnings: string[],
): Promise<T | undefined> {
  const row = await configFiles.findFileByName(db, teamId, name);
  if (!row) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(row.content).toString('utf8'));
  } catch (error) {
    warnings.push(`${name} ignored: not valid JSON (${(error as Error).message})`);
    return undefined;
  }
  const result = schema.safeParse(parsed);
  if (!result.success) {
    const issue = result.error.issues[0];
    warnings.push(
      `${name} ignored: ${issue ? `${issue.path.join('.') || 'file'}: ${issue.message}` : 'unexpected content'}`,
    );
    return undefined;
  }
  return result.data;
}

/** Team-wide options from the config files codes.json and photographers.json; a broken file is skipped with a warning. */
export async function loadStampOptions(
  db: Db,
  teamId: number,
): Promise<{ options: StampOptions; warnings: string[] }> {
  const warnings: string[] = [];
  const [codes, photographers] = await Promise.all([
    readJsonFile(db, teamId, codesFile, codesSchema, warnings),
    readJsonFile(db, teamId, photographersFile, photographersSchema, warnings),
  ]);
  return { options: { dateFormat: 'DD.MM.YYYY', timeFormat: 'HH:mm', codes, photographers }, warnings };
}

export interface StampedBlob {
  blobKey: string;
  size: number;
  /** Not hashed while stamping: only a delivery to another project needs it, and reads it then (delivery.ts). */
  sha256: null;
  warnings: string[];
  unknownVariables: string[];
}

/**
 * Stamps a blob into a new blob: the new head is made in memory (on a stamp thread, within
 * STAMP_TIME_LIMIT_MS: a file over it is delivered unstamped or held like any file that cannot be
 * stamped, issue 15), and the new blob is that head spliced onto the source's image data, which is
 * not copied (bench/README.md "Stamping, session 13"). A MetadataError (or any other failure)
 * rejects with nothing kept; the source blob is never touched.
 */
export async function stampBlob(
  ctx: AppContext,
  sourceKey: string,
  template: Template,
  options: StampOptions,
): Promise<StampedBlob> {
  const stampOptions = { timeLimitMs: ctx.config.STAMP_TIME_LIMIT_MS, ...options };
  /**
   * The whole file stamped: its new head spliced onto its image data; a file whose trailer holds
   * IIM (FotoStation, AFCP: rewritten, issue 26) is written whole, as splicing cannot end it.
   */
  const stampFile = async (file: string) => {
    const stamped = await stampJpegHead(file, template, stampOptions);
    if (stamped.tail)
      return stampedBlob(await ctx.blobs.write(Readable.from(withTrailer(file, stamped))), stamped);
    return stampedBlob(
      await ctx.blobs.writeSpliced(stamped.head, { file, start: stamped.dataOffset }),
      stamped,
    );
  };
  const stamped = await ctx.blobs.withLocalParts(sourceKey, async (parts) => {
    const [head, data] = parts;
    // A file as it was received: one part, the whole file.
    if (parts.length === 1 && head?.start === 0) return stampFile(head.file);
    if (parts.length !== 2 || head?.start !== 0 || !data || !(await partEndsInEoi(data))) return undefined;
    // A stamped file stamped again (the event step, a script, a copy delivered to another
    // project): its head alone is read, and the new head spliced onto the same image data.
    const again = await stampJpegHead(head.file, template, { ...stampOptions, headOnly: true });
    return stampedBlob(await ctx.blobs.writeSpliced(again.head, data), again);
  });
  // Anything else (image data that does not end in EOI): stamped from one whole local copy.
  return stamped ?? ctx.blobs.withLocalFile(sourceKey, stampFile);
}

/** The bytes of a stamped file with a rewritten trailer: head, image data, trailer. */
async function* withTrailer(file: string, stamped: HeadStampResult): AsyncGenerator<Buffer> {
  yield stamped.head;
  if ((stamped.dataEnd ?? 0) > stamped.dataOffset)
    yield* createReadStream(file, {
      start: stamped.dataOffset,
      end: (stamped.dataEnd ?? 0) - 1,
      highWaterMark: 1 << 20,
    });
  if (stamped.tail) yield stamped.tail;
}

const stampedBlob = (
  blob: { key: string; size: number },
  stamped: { warnings: string[]; unknownVariables: string[] },
): StampedBlob => ({
  blobKey: blob.key,
  size: blob.size,
  sha256: null,
  warnings: stamped.warnings,
  unknownVariables: stamped.unknownVariables,
});

/** Whether a file range ends in the JPEG end marker (FF D9). */
async function partEndsInEoi(part: FilePart): Promise<boolean> {
  if (part.end - part.start < 2) return false;
  const handle = await open(part.file, 'r');
  try {
    const tail = Buffer.alloc(2);
    await handle.read(tail, 0, 2, part.end - 2);
    return endsInEoi(tail, part.end - part.start);
  } finally {
    await handle.close();
  }
}

/** The first bytes of a blob (to tell a JPEG), without reading the rest. */
export async function readFirstBytes(ctx: AppContext, key: string, count: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of ctx.blobs.read(key, { start: 0, end: count - 1 })) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).subarray(0, count);
}
