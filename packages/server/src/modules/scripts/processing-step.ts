// The script step of upload processing (spec §1 upload flow, §3 Script), after the metadata
// step: the scripts of the project's folders from the root down, then the project's own, run
// in the sandbox on what the template produced. Their metadata changes are written with the
// metadata engine (mode replace for each property a script changed), file.name renames the
// delivered file, skip/reject settle jobs. A script error stops the upload (ProcessingStopped).
import path from 'node:path/posix';
import { scriptLimits } from '@photorelay/contract/scripts';
import {
  isJpeg,
  type JpegMetadataResult,
  readJpegMetadata,
  type Template,
  type TemplateValue,
} from '@photorelay/xmp/index';
import { pictureFacts } from '@photorelay/xmp/variables';
import { z } from 'zod';
import { topId, validFileName } from '../../adapters/script-sandbox/api.ts';
import { type ScriptInput, type ScriptOutput, scriptSandbox } from '../../adapters/script-sandbox/sandbox.ts';
import type { AppContext } from '../../context.ts';
import {
  type ProcessedFile,
  type ProcessingStep,
  ProcessingStopped,
  type UploadToProcess,
} from '../../pipeline/processing.ts';
import { isStorageFull } from '../../pipeline/storage-full.ts';
import { readFirstBytes, stampBlob } from '../metadata/stamping.ts';
import * as q from './queries.ts';

const metaValueOut = z.object({
  p: z
    .string()
    .max(300)
    .regex(/^[A-Za-z][A-Za-z0-9_$]*(\[\d{1,3}\])?(,[A-Za-z][A-Za-z0-9_$]*(\[\d{1,3}\])?){0,7}$/),
  v: z.string().max(1024),
  pos: z.number().int().min(0).max(10_000).optional(),
  lang: z.string().max(64).optional(),
});
// The sandbox's answer is the script's own data: checked again here before it is used.
const outputSchema = z.object({
  file: z.object({
    name: z.string().min(1).max(255).refine(validFileName, 'not a valid file name'),
  }),
  meta: z.array(metaValueOut).max(5000),
  written: z.array(z.string().max(300)).max(1000),
  skipped: z.array(z.string().max(300)).max(100),
  rejected: z.string().max(1000).nullable(),
  log: z.array(z.string().max(2000)).max(500),
});

const mimeTypes: Record<string, string> = {
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.png': 'image/png',
  '.tif': 'image/tiff',
  '.tiff': 'image/tiff',
  '.heic': 'image/heic',
  '.mp4': 'video/mp4',
  '.mov': 'video/quicktime',
  '.xmp': 'application/rdf+xml',
};

/** EXIF as scripts name it (exif.get('SerialNumber')), with the XMP copies as fallback like {serial}. */
function exifTags(read: JpegMetadataResult | undefined): Record<string, string | number> {
  if (!read) return {};
  const { exif } = read;
  const facts = pictureFacts(exif, read.xmp);
  const tags: Record<string, string | number | undefined> = {
    DateTimeOriginal: exif.dateTimeOriginal,
    OffsetTimeOriginal: exif.offsetTimeOriginal,
    SubSecTimeOriginal: exif.subSecTimeOriginal,
    Make: facts.make,
    Model: facts.model,
    SerialNumber: facts.serial,
    BodySerialNumber: facts.serial,
    LensModel: facts.lens,
    ISO: facts.iso,
    GPSLatitude: exif.gpsLatitude,
    GPSLongitude: exif.gpsLongitude,
    GPSAltitude: exif.gpsAltitude,
    GPSTimeStamp: exif.gpsTimeStamp,
    GPSDateStamp: exif.gpsDateStamp,
  };
  return Object.fromEntries(
    Object.entries(tags).filter((e): e is [string, string | number] => e[1] !== undefined),
  );
}

type MetaValue = z.infer<typeof metaValueOut>;
const toMeta = (v: TemplateValue): MetaValue => ({
  p: v.propertytypeids,
  v: v.value,
  ...(v.position === undefined ? {} : { pos: v.position }),
  ...(v.lang === undefined ? {} : { lang: v.lang }),
});
// A script's text is literal: braces would otherwise be read as template variables.
const literal = (value: string) => value.replace(/\{/g, '\\{');

/**
 * Mode replace, with the scripts' values, for each property the scripts wrote (`written`, their
 * values in `after`) whose values differ from `before`; undefined when none does.
 */
export function changesAsTemplate(
  before: MetaValue[],
  { meta: after, written }: { meta: MetaValue[]; written: string[] },
): Template | undefined {
  if (written.length === 0) return undefined;
  const mine = new Set(written);
  // In the order the properties come in the file, then the new ones (as the values were listed before).
  const order = new Set<string>();
  const group = (values: MetaValue[]) => {
    const byId = new Map<string, MetaValue[]>();
    for (const v of values) {
      const id = topId(v.p);
      if (!mine.has(id)) continue;
      order.add(id);
      const list = byId.get(id);
      if (list) list.push(v);
      else byId.set(id, [v]);
    }
    return byId;
  };
  const key = (values: MetaValue[] | undefined) =>
    JSON.stringify((values ?? []).map((v) => [v.p, v.pos ?? null, v.lang ?? null, v.v]).sort());
  const was = group(before);
  const now = group(after);
  const modes: Template['modes'] = {};
  const values: TemplateValue[] = [];
  for (const id of order) {
    const changed = now.get(id) ?? [];
    if (key(was.get(id)) === key(changed)) continue;
    modes[id] = 'replace';
    if (changed.length === 0) values.push({ propertytypeids: id, value: '' });
    for (const v of changed)
      values.push({
        propertytypeids: v.p,
        value: literal(v.v),
        ...(v.pos === undefined ? {} : { position: v.pos }),
        ...(v.lang === undefined ? {} : { lang: v.lang }),
      });
  }
  return Object.keys(modes).length > 0 ? { modes, values } : undefined;
}

/** What a script sees of one file (docs/scripts.md): its name, folder, metadata and camera data. */
export function scriptInput(
  read: JpegMetadataResult | undefined,
  uploadPath: string,
  size: number,
  project: { projectName: string; destinations: string[] },
): ScriptInput {
  const name = path.basename(uploadPath);
  const folder = path.dirname(uploadPath) === '.' ? '' : path.dirname(uploadPath);
  return {
    file: { name, folder, size, type: mimeTypes[path.extname(name).toLowerCase()] ?? '' },
    meta: (read?.values ?? []).map(toMeta),
    exif: exifTags(read),
    project: { name: project.projectName },
    destinations: project.destinations,
  };
}

/** What the scripts reported, kept in the upload's processing detail and the test image's report. */
export interface ScriptReport {
  scripts: string[];
  log: string[];
  skipped: string[];
  rejected: string | null;
  renamed?: string;
}

/** The line that ends a log cut at scriptLimits.storedLogBytes. */
export const logCutMarker = (moreLines: number) =>
  `… log cut: ${moreLines} more line${moreLines === 1 ? '' : 's'}`;

/**
 * The scripts' log as kept with the upload: whole lines up to scriptLimits.storedLogBytes, then
 * a marker. Issue 25: a script that logged 400 KB per upload made a 9.8 MB job page, and the
 * log is stored for every upload of the project until retention.
 */
export function storedLog(lines: readonly string[]): string[] {
  // Room for the marker (at most ~30 bytes) within the limit.
  const budget = scriptLimits.storedLogBytes - 64;
  let bytes = 0;
  for (const [index, line] of lines.entries()) {
    bytes += Buffer.byteLength(line);
    if (bytes > budget) return [...lines.slice(0, index), logCutMarker(lines.length - index)];
  }
  return [...lines];
}

export async function runScripts(
  ctx: AppContext,
  upload: UploadToProcess,
  current: ProcessedFile,
): Promise<ProcessedFile | null> {
  const loaded = await q.loadProcessingScripts(ctx.db, upload.teamId, upload.projectId);
  if (!loaded || loaded.scripts.length === 0) return null;
  const jpeg = isJpeg(await readFirstBytes(ctx, current.blobKey, 3));
  const read = jpeg
    ? await readJpegMetadata(ctx.blobs.read(current.blobKey)).catch(() => undefined)
    : undefined;
  const name = path.basename(upload.path);
  const input = scriptInput(read, upload.path, current.size, loaded);
  const before = input.meta;
  const result = await scriptSandbox(ctx.config).run(
    loaded.scripts.map((s) => ({ name: s.filename, source: s.source })),
    input,
    { teamId: upload.teamId },
  );
  // A script that keeps running into the hard stop makes its project's uploads wait (issue 25).
  if (!result.ok && 'hardStop' in result) await q.noteScriptHardStop(ctx.db, upload.projectId);
  else await q.clearScriptHardStops(ctx.db, upload.projectId);
  const scripts = loaded.scripts.map((s) => `${s.owner} ${s.ownerName}: ${s.filename}`);
  if (!result.ok) {
    const where = result.error.position ? `${result.error.position}: ` : '';
    throw new ProcessingStopped(`Script error: ${where}${result.error.message}`, {
      script: { scripts, error: result.error },
    });
  }
  const parsed = outputSchema.safeParse(result.output);
  if (!parsed.success)
    throw new ProcessingStopped(`Script error: ${parsed.error.issues[0]?.message ?? 'bad result'}`, {
      script: { scripts },
    });
  const output: ScriptOutput = parsed.data;
  const log = [...output.log];
  let file: Pick<ProcessedFile, 'blobKey' | 'size' | 'sha256'> = current;
  const template = changesAsTemplate(before, output);
  if (template && !jpeg) log.push('metadata changes ignored: not a JPEG');
  else if (template) {
    try {
      const stamped = await stampBlob(ctx, current.blobKey, template, {});
      file = { blobKey: stamped.blobKey, size: stamped.size, sha256: stamped.sha256 };
    } catch (error) {
      // A full disk is not the script's fault: the upload waits for space (processing.ts).
      if (isStorageFull(error)) throw error;
      throw new ProcessingStopped(
        `Script error: the changed metadata could not be written: ${(error as Error).message}`,
        {
          script: { scripts },
        },
      );
    }
  }
  const renamed = output.file.name !== name ? output.file.name : undefined;
  const report: ScriptReport = {
    scripts,
    log: storedLog(log),
    skipped: output.skipped,
    rejected: output.rejected,
    ...(renamed ? { renamed } : {}),
  };
  return {
    ...file,
    detail: { script: report },
    ...(renamed ? { filename: renamed } : {}),
    skipped: output.skipped,
    rejected: output.rejected,
  };
}

/** The scripts' step of upload processing (runtime.ts lists it after the metadata step). */
export const scriptStep: ProcessingStep = { name: 'script', run: runScripts };
