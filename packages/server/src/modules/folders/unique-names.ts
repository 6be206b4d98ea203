// Two items of one name side by side cannot be told apart in the tree (issue 16 item 8): a name
// is unique per folder and kind, ignoring case.
import { AppError } from '@photorelay/contract/errors';
import type { Db } from '../../db/kysely.ts';
import { isNameTaken, type NamedKind } from './queries.ts';

/** Refuses with 409 NameTaken when another item of this kind in the folder has the name. */
export async function requireFreeName(
  db: Db,
  teamId: number,
  kind: NamedKind,
  folderId: number,
  name: string,
  exceptId = 0,
) {
  if (await isNameTaken(db, teamId, kind, folderId, name, exceptId))
    throw new AppError('NameTaken', `Another ${kind} in this folder is named "${name.trim()}"`);
}
