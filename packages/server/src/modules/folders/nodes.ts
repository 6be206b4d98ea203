import type { NodeKind } from '@photorelay/contract/route';
import type { Db } from '../../db/kysely.ts';

export type { NodeKind };

const tables = {
  project: 'projects',
  ftpserver: 'ftp_servers',
  calendar: 'calendars',
} as const;

/** The folder whose permissions govern a node (a folder governs itself); undefined when not in the team. */
export async function resolveNodeFolder(
  db: Db,
  teamId: number,
  kind: NodeKind,
  id: number,
): Promise<number | undefined> {
  if (kind === 'folder') {
    const row = await db
      .selectFrom('folders')
      .select('id')
      .where('team_id', '=', teamId)
      .where('id', '=', id)
      .executeTakeFirst();
    return row?.id;
  }
  const row = await db
    .selectFrom(tables[kind])
    .select('folder_id')
    .where('team_id', '=', teamId)
    .where('id', '=', id)
    .executeTakeFirst();
  return row?.folder_id;
}
