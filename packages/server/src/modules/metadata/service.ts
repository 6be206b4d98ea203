// A project's metadata template (spec §7 "Image processing and metadata"): the catalog, values
// and modes, clear, and the .xmp sidecar upload and download.
import { AppError } from '@photorelay/contract/errors';
import {
  type DownloadXmpFileDetail,
  metadataLimits,
  type StoreXmpFileDetail,
  type XmpFieldDef,
  type XmpProperty,
} from '@photorelay/contract/metadata';
import {
  catalog,
  type FieldDef,
  isMetadataError,
  type Mode,
  templateToXmpSidecar,
  xmpSidecarToTemplate,
} from '@photorelay/xmp/index';
import type { AppContext } from '../../context.ts';
import { loadAccess, requirePermission } from '../folders/permissions.ts';
import * as projectQueries from '../projects/queries.ts';
import type { Member } from '../teams/service.ts';
import * as q from './queries.ts';
import { loadTemplate } from './stamping.ts';
import {
  type CheckedValue,
  checkMode,
  checkValue,
  normalizeLang,
  requireAltText,
  requirePath,
  requireStructureItem,
} from './value-rules.ts';

/** The project, if the member holds `needs` on its folder; another team's project is 404. */
export async function requireProject(ctx: AppContext, member: Member, id: number, needs: 'read' | 'write') {
  const project = await projectQueries.findProject(ctx.db, member.teamId, id);
  if (!project) throw new AppError('NotFound');
  requirePermission(await loadAccess(ctx.db, member), project.folder_id, needs);
  return project;
}

function presentField(def: FieldDef): XmpFieldDef {
  return {
    id: def.id,
    type: def.type,
    arrayOfStructures: def.arrayOfStructures,
    xmpName: def.xmpName,
    title: def.title,
    desc: def.desc,
    ...(def.valueFormat ? { valueFormat: def.valueFormat } : {}),
    ...(def.fields ? { fields: def.fields.map(presentField) } : {}),
  };
}

const properties: XmpProperty[] = catalog.map((def) => ({
  ...presentField(def),
  schema: def.schema,
  uiCategory: def.uiCategory,
  uiOrder: def.uiOrder,
  vars: def.vars,
  modes: [...def.modes],
  iimMaxBytes: def.iim?.maxBytes ?? null,
  iimName: def.iim?.name ?? null,
}));

/** GET xmpproperties: the catalog (the same for every team). */
export const listProperties = (): XmpProperty[] => properties;

export async function getValues(ctx: AppContext, member: Member, projectId: number) {
  const project = await requireProject(ctx, member, projectId, 'read');
  const [values, modes] = await Promise.all([
    q.listValues(ctx.db, member.teamId, project.id),
    q.listModes(ctx.db, member.teamId, project.id),
  ]);
  return {
    xmpmodes: modes.map((m) => ({ propertytypeid: m.property_id, mode: m.mode })),
    xmpvalues: values.map((v) => ({
      propertytypeids: v.propertytypeids,
      value: v.value,
      position: v.position,
      lang: v.lang,
    })),
  };
}

async function requireRoom(ctx: AppContext, projectId: number, adding: number) {
  if ((await q.countValues(ctx.db, projectId)) + adding > metadataLimits.valuesPerProject)
    throw new AppError(
      'ValidationError',
      `A project holds at most ${metadataLimits.valuesPerProject} metadata values`,
    );
}

const warningsOf = (checked: readonly CheckedValue[]) =>
  checked.map((c) => c.warning).filter((w): w is string => w !== undefined);

/** One row per (ids, position, lang), the last one winning: an upsert may touch a row once only. */
const uniqueRows = (checked: readonly CheckedValue[]) => [
  ...new Map(
    checked.map((c) => [`${c.row.propertytypeids}|${c.row.position}|${c.row.lang}`, c.row]),
  ).values(),
];

/**
 * PUT xmpvalue/{ids}[/position/{n}|/lang/{lang}] and POST xmpvalue/{id}/lang/{lang}: sets one
 * value; one in a language must belong to an Alt text, even in the default language.
 */
export async function putValue(
  ctx: AppContext,
  member: Member,
  projectId: number,
  input: { propertytypeids: string; value: string; position?: number; lang?: string },
) {
  if (input.lang !== undefined) requireAltText(input.propertytypeids);
  const project = await requireProject(ctx, member, projectId, 'write');
  const checked = checkValue(input);
  await requireRoom(ctx, project.id, 1);
  await q.upsertValues(ctx.db, project.id, [checked.row]);
  return warningsOf([checked]);
}

/** POST xmpvalue/{id}/position/{n}: one item of an array of structures, given by its fields (replaces the item). */
export async function putStructureItem(
  ctx: AppContext,
  member: Member,
  projectId: number,
  input: { propertyId: string; position: number; properties: ReadonlyArray<{ id: string; value: string }> },
) {
  const project = await requireProject(ctx, member, projectId, 'write');
  const property = requireStructureItem(input.propertyId, input.position);
  const checked = input.properties.map((field) =>
    checkValue({
      propertytypeids: `${property.id},${field.id}`,
      value: field.value,
      position: input.position,
    }),
  );
  await requireRoom(ctx, project.id, checked.length);
  await ctx.db.transaction().execute(async (trx) => {
    await q.deleteValues(trx, project.id, property.id, { position: input.position, withChildren: true });
    await q.upsertValues(trx, project.id, uniqueRows(checked));
  });
  return warningsOf(checked);
}

/** DELETE xmpvalue/{ids}[/position/{n}|/lang/{lang}]: removes the value(s), with the fields of a structure. */
export async function deleteValue(
  ctx: AppContext,
  member: Member,
  projectId: number,
  input: { propertytypeids: string; position?: number; lang?: string },
) {
  const project = await requireProject(ctx, member, projectId, 'write');
  requirePath(input.propertytypeids);
  await q.deleteValues(ctx.db, project.id, input.propertytypeids, {
    position: input.position,
    lang: input.lang === undefined ? undefined : normalizeLang(input.lang),
    withChildren: true,
  });
}

/** PUT xmpvaluemode/{propertyId}/mode/{mode}: a mode the property's type does not allow is refused. */
export async function setMode(
  ctx: AppContext,
  member: Member,
  projectId: number,
  propertyId: string,
  mode: string,
) {
  const project = await requireProject(ctx, member, projectId, 'write');
  await q.upsertModes(ctx.db, project.id, [checkMode(propertyId, mode)]);
}

/** DELETE xmpvalues: every value and mode of the project. */
export async function clearAll(ctx: AppContext, member: Member, projectId: number) {
  const project = await requireProject(ctx, member, projectId, 'write');
  await ctx.db.transaction().execute(async (trx) => {
    await q.clearValues(trx, project.id);
    await q.clearModes(trx, project.id);
  });
}

/** The bytes of a data URL (base64 or percent-encoded), or the text itself when it is none. */
export function decodeContent(content: string): Buffer {
  if (!content.startsWith('data:')) return Buffer.from(content, 'utf8');
  const comma = content.indexOf(',');
  if (comma < 0) throw new AppError('ValidationError', 'content is not a valid data URL');
  const header = content.slice(5, comma);
  const data = content.slice(comma + 1);
  if (/;base64$/i.test(header)) {
    if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(data))
      throw new AppError('ValidationError', 'content is not valid base64');
    return Buffer.from(data, 'base64');
  }
  try {
    return Buffer.from(decodeURIComponent(data), 'utf8');
  } catch {
    throw new AppError('ValidationError', 'content is not a valid data URL');
  }
}

/**
 * Command storexmpfile: the sidecar's values and modes replace all values and modes. A PhotoRelay
 * sidecar carries its modes; a file from elsewhere gets mode replace for each property with values.
 */
export async function storeXmpFile(
  ctx: AppContext,
  member: Member,
  input: { dbprojectid: number; filename: string; content: string },
): Promise<StoreXmpFileDetail> {
  const project = await requireProject(ctx, member, input.dbprojectid, 'write');
  if (!/\.xmp$/i.test(input.filename)) throw new AppError('ValidationError', 'File must be of type .xmp');
  const bytes = decodeContent(input.content);
  if (bytes.length > metadataLimits.sidecarBytes)
    throw new AppError('PayloadTooLarge', `The XMP file is larger than ${metadataLimits.sidecarBytes} bytes`);
  let template: ReturnType<typeof xmpSidecarToTemplate>;
  try {
    template = xmpSidecarToTemplate(bytes);
  } catch (error) {
    if (isMetadataError(error)) throw new AppError('ValidationError', error.message);
    throw error;
  }
  const checked = template.values.map((value) => checkValue(value, 'warn'));
  const rows = uniqueRows(checked);
  if (rows.length > metadataLimits.valuesPerProject)
    throw new AppError(
      'ValidationError',
      `A project holds at most ${metadataLimits.valuesPerProject} metadata values`,
    );
  const modes = Object.entries(template.modes).map(([id, mode]) => checkMode(id, mode as Mode));
  await ctx.db.transaction().execute(async (trx) => {
    await q.clearValues(trx, project.id);
    await q.clearModes(trx, project.id);
    await q.upsertValues(trx, project.id, rows);
    await q.upsertModes(trx, project.id, modes);
  });
  return { values: rows.length, modes: modes.length, warnings: warningsOf(checked) };
}

/** A file name from a project name: no path or control characters. */
export function safeFileName(name: string, extension: string): string {
  const base =
    name
      .replace(/[\\/:*?"<>|\p{Cc}]+/gu, '_')
      .trim()
      .slice(0, 100) || 'metadata';
  return `${base}${extension}`;
}

/** Command downloadxmpfile: the project's values as an .xmp sidecar. */
export async function downloadXmpFile(
  ctx: AppContext,
  member: Member,
  projectId: number,
): Promise<DownloadXmpFileDetail> {
  const project = await requireProject(ctx, member, projectId, 'read');
  const { template } = await loadTemplate(ctx.db, member.teamId, project.id);
  return { filename: safeFileName(project.name, '.xmp'), content: templateToXmpSidecar(template) };
}

/** Issue 15: whether the project holds pictures that cannot be stamped; issue 28: or with an empty variable. */
export async function getSettings(ctx: AppContext, member: Member, projectId: number) {
  const project = await requireProject(ctx, member, projectId, 'read');
  const [row, variables] = await Promise.all([
    q.getHoldSetting(ctx.db, member.teamId, project.id),
    q.getVariableHoldSetting(ctx.db, member.teamId, project.id),
  ]);
  return {
    holdUnstampable: row?.hold_unstampable ?? false,
    holdUnresolvedVariables: variables?.hold_unresolved_variables ?? false,
  };
}

export async function setSettings(
  ctx: AppContext,
  member: Member,
  projectId: number,
  settings: { holdUnstampable?: boolean; holdUnresolvedVariables?: boolean },
) {
  const project = await requireProject(ctx, member, projectId, 'write');
  await ctx.db.transaction().execute(async (trx) => {
    if (settings.holdUnstampable !== undefined)
      await q.setHoldSetting(trx, member.teamId, project.id, settings.holdUnstampable);
    if (settings.holdUnresolvedVariables !== undefined)
      await q.setVariableHoldSetting(trx, member.teamId, project.id, settings.holdUnresolvedVariables);
  });
}

/**
 * Issue 26: "send as is" for a picture held because no metadata could be written: its held
 * deliveries go out unstamped at once. Needs write access to its project; Conflict when none
 * of its deliveries is held (released already, or never held).
 */
export async function releaseHeldPicture(ctx: AppContext, member: Member, uploadId: number) {
  const upload = await ctx.db
    .selectFrom('uploads')
    .select('project_id')
    .where('team_id', '=', member.teamId)
    .where('id', '=', uploadId)
    .executeTakeFirst();
  if (!upload) throw new AppError('NotFound');
  await requireProject(ctx, member, upload.project_id, 'write');
  const released = await q.releaseHeldJobsOfUpload(ctx.db, member.teamId, uploadId);
  if (released === 0) throw new AppError('Conflict', 'None of this picture’s deliveries is held');
  ctx.wake.pipeline();
  return released;
}
