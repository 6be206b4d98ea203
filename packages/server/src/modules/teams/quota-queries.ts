import { sql } from 'kysely';
import type { Db } from '../../db/kysely.ts';

/**
 * What a team holds of the storage the quota counts: its stamped test images until they expire
 * (by size), the blobs of uploaded ones not stamped yet (their size is the blob's), its
 * commands' rows (payloads waiting, answers kept for a day) and the scripts' logs kept with its
 * uploads (issue 25; at most 16 KB each, until retention).
 */
export async function teamStoredBytes(db: Db, teamId: number) {
  const result = await sql<{
    results: string;
    commands: string;
    scriptLogs: string;
    pending: string[] | null;
  }>`
    select
      (select coalesce(sum(result_size), 0) from metadata_test_images
       where team_id = ${teamId} and expires_at > now() and result_blob_key is not null) as results,
      (select array_agg(source_blob_key) from metadata_test_images
       where team_id = ${teamId} and expires_at > now() and source_blob_key is not null) as pending,
      (select coalesce(sum(octet_length(payload::text) + coalesce(octet_length(detail::text), 0)), 0)
       from commands where team_id = ${teamId}) as commands,
      (select coalesce(sum(octet_length((processing_detail -> 'script')::text)), 0) from uploads
       where team_id = ${teamId} and (processing_detail -> 'script') is not null) as "scriptLogs"
  `.execute(db);
  const row = result.rows[0];
  return {
    resultBytes: Number(row?.results ?? 0),
    pendingImageKeys: row?.pending ?? [],
    commandBytes: Number(row?.commands ?? 0),
    scriptLogBytes: Number(row?.scriptLogs ?? 0),
  };
}
