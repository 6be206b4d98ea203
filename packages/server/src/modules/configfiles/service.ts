import { configFileNamePattern, configFileProblem } from '@photorelay/contract/configfiles';
import { AppError } from '@photorelay/contract/errors';
import { parseXml } from '@photorelay/xmp/xml-parser';
import type { Db } from '../../db/kysely.ts';
import { requireTeamAdmin } from '../folders/permissions.ts';
import type { Member } from '../teams/service.ts';
import * as q from './queries.ts';

const present = (row: { id: number; name: string; size: number; updated_at: Date }) => ({
  dbconfigfileid: row.id,
  name: row.name,
  size: row.size,
  time: row.updated_at.toISOString(),
});

export async function listFiles(db: Db, member: Member) {
  requireTeamAdmin(member);
  return (await q.listFiles(db, member.teamId)).map(present);
}

/** Decodes a data URL (or plain base64) strictly; anything else is a client error. */
function decodeDataUrl(content: string): Buffer {
  const match = /^data:[\w.+-]*\/?[\w.+-]*(;[\w=.-]+)*;base64,([A-Za-z0-9+/]*={0,2})$/.exec(content);
  if (!match) throw new AppError('ValidationError', 'content must be a base64 data URL');
  return Buffer.from(match[2], 'base64');
}

/** The same limits the page checks, plus that the content really is what its name says. */
function checkContent(name: string, bytes: Buffer) {
  const problem = configFileProblem(name, bytes.length);
  if (problem === 'wrongType' || !configFileNamePattern.test(name))
    throw new AppError('ValidationError', 'File must be of type .xmp or .json');
  if (problem === 'tooLarge') throw new AppError('PayloadTooLarge', 'File size should be less than 100 KB!');
  const text = new TextDecoder('utf-8', { fatal: false }).decode(bytes);
  if (name.toLowerCase().endsWith('.json')) {
    try {
      JSON.parse(text);
    } catch (error) {
      throw new AppError('ValidationError', `Invalid JSON: ${(error as Error).message}`);
    }
  } else {
    try {
      // Refuses DOCTYPE/ENTITY declarations and anything not well-formed.
      parseXml(text);
    } catch (error) {
      throw new AppError('ValidationError', `Invalid XMP: ${(error as Error).message}`);
    }
  }
}

export async function saveFile(
  db: Db,
  member: Member,
  input: { name: string; content: string; dbconfigfileid?: number },
) {
  requireTeamAdmin(member);
  const bytes = decodeDataUrl(input.content);
  checkContent(input.name, bytes);
  return db.transaction().execute(async (trx) => {
    // Replacing by id keeps the row but may give it the new name; a clash with another file replaces that one.
    if (input.dbconfigfileid !== undefined) {
      const existing = await q.findFileById(trx, member.teamId, input.dbconfigfileid);
      if (!existing) throw new AppError('NotFound');
      const clash = await q.findFileByName(trx, member.teamId, input.name);
      if (clash && clash.id !== existing.id) await q.deleteFile(trx, member.teamId, clash.id);
      if (existing.name !== input.name) await q.renameFile(trx, member.teamId, existing.id, input.name);
    }
    const row = await q.upsertFile(trx, member.teamId, input.name, bytes);
    return { dbconfigfileid: row.id, size: row.size };
  });
}

export async function deleteFile(db: Db, member: Member, id: number) {
  requireTeamAdmin(member);
  const result = await q.deleteFile(db, member.teamId, id);
  if (Number(result.numDeletedRows) === 0) throw new AppError('NotFound');
}

export async function downloadFile(db: Db, member: Member, id: number) {
  requireTeamAdmin(member);
  const row = await q.findFileById(db, member.teamId, id);
  if (!row) throw new AppError('NotFound');
  return { name: row.name, content: Buffer.from(row.content) };
}

// The event category definitions the calendar's event dialog reads (spec §7 'Calendar').
const categoryFiles = new Set(['sport.json', 'news.json']);

/**
 * A config file by name, with the same permission as the list (Owner, Operator); any member may
 * read the calendar's category definitions, which are no secret.
 */
export async function readFileByName(db: Db, member: Member, name: string) {
  if (!categoryFiles.has(name.toLowerCase())) requireTeamAdmin(member);
  const row = await q.findFileByName(db, member.teamId, name);
  if (!row) throw new AppError('NotFound');
  const content = Buffer.from(row.content);
  const type = name.toLowerCase().endsWith('.json') ? 'application/json' : 'application/rdf+xml';
  return {
    ...present(row),
    content: `data:${type};base64,${content.toString('base64')}`,
    text: content.toString('utf8'),
  };
}
