// Scripts of projects and of folders of type projects (spec §2 script tab and folder page, §7).

import { AppError } from '@photorelay/contract/errors';
import { errorPositionSeparator } from '@photorelay/contract/metadata';
import { type Script, type StoreScriptFileBody, scriptLimits } from '@photorelay/contract/scripts';
import { scriptSandbox } from '../../adapters/script-sandbox/sandbox.ts';
import type { AppContext } from '../../context.ts';
import { loadAccess, requirePermission } from '../folders/permissions.ts';
import * as folderQueries from '../folders/queries.ts';
import { decodeContent } from '../metadata/service.ts';
import * as projectQueries from '../projects/queries.ts';
import type { Member } from '../teams/service.ts';
import * as q from './queries.ts';

export type Owner = { kind: 'project'; id: number } | { kind: 'folder'; id: number };

/** The owner's folder for the permission check; another team's or a missing node is 404. */
async function requireOwner(ctx: AppContext, member: Member, owner: Owner, needs: 'read' | 'write') {
  const access = await loadAccess(ctx.db, member);
  if (owner.kind === 'project') {
    const project = await projectQueries.findProject(ctx.db, member.teamId, owner.id);
    if (!project) throw new AppError('NotFound');
    requirePermission(access, project.folder_id, needs);
    return { projectId: project.id };
  }
  const folder = await folderQueries.findFolder(ctx.db, member.teamId, owner.id);
  if (!folder) throw new AppError('NotFound');
  requirePermission(access, folder.id, needs);
  if (folder.type !== 'projects')
    throw new AppError('ValidationError', 'Only folders of type projects have a script');
  return { folderId: folder.id };
}

export async function getScript(
  ctx: AppContext,
  member: Member,
  owner: Owner,
): Promise<{ script: Script[] }> {
  const found = await q.findScript(ctx.db, member.teamId, await requireOwner(ctx, member, owner, 'read'));
  return { script: found ? [found] : [] };
}

export async function deleteScript(ctx: AppContext, member: Member, owner: Owner) {
  await q.deleteScript(ctx.db, member.teamId, await requireOwner(ctx, member, owner, 'write'));
  await q.clearTeamScriptBackoffs(ctx.db, member.teamId);
}

/**
 * Command storescriptfile: a script is checked in the sandbox before it is stored; a syntax
 * error answers 'position<||||>message' and stores nothing.
 */
export async function storeScriptFile(ctx: AppContext, member: Member, input: StoreScriptFileBody) {
  const owner: Owner =
    input.dbprojectid !== undefined
      ? { kind: 'project', id: input.dbprojectid }
      : { kind: 'folder', id: input.dbfolderid ?? 0 };
  const target = await requireOwner(ctx, member, owner, 'write');
  const bytes = decodeContent(input.content);
  const source = new TextDecoder('utf-8', { fatal: false }).decode(bytes).replace(/^\uFEFF/, '');
  if (source.length > scriptLimits.sourceChars)
    throw new AppError('PayloadTooLarge', `A script may have at most ${scriptLimits.sourceChars} characters`);
  if (source.includes('\u0000')) throw new AppError('ValidationError', 'A script must be text');
  const error = await scriptSandbox(ctx.config).check({ name: input.filename, source });
  if (error) {
    // The script's own line:column: the tab marks that line.
    const position = /(\d+:\d+)$/.exec(error.position)?.[1] ?? '';
    throw new AppError('ValidationError', `${position}${errorPositionSeparator}${error.message}`);
  }
  await q.upsertScript(ctx.db, member.teamId, target, { filename: input.filename, source });
  // Uploads held back for a script that kept hitting the hard stop go on with the new one.
  await q.clearTeamScriptBackoffs(ctx.db, member.teamId);
  return { filename: input.filename, size: bytes.length };
}
