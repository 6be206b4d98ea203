import { sql } from 'kysely';
import type { Db } from '../../db/kysely.ts';

/**
 * The bytes a team holds of the storage the quota counts: its test images until they expire (a
 * result by its size, an upload not yet stamped by `pendingImageBytes`, the most it may be) and
 * its commands' rows (payloads waiting, answers kept for a day).
 */
export async function teamStoredBytes(db: Db, teamId: number, pendingImageBytes: number) {
  const result = await sql<{ images: string; commands: string }>`
    select
      (select coalesce(sum(
         case when result_blob_key is not null then coalesce(result_size, 0) else 0 end
         + case when source_blob_key is not null then ${pendingImageBytes} else 0 end), 0)
       from metadata_test_images where team_id = ${teamId} and expires_at > now()) as images,
      (select coalesce(sum(octet_length(payload::text) + coalesce(octet_length(detail::text), 0)), 0)
       from commands where team_id = ${teamId}) as commands
  `.execute(db);
  const row = result.rows[0];
  return { images: Number(row?.images ?? 0), commands: Number(row?.commands ?? 0) };
}
