import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { ListPicturesResponse, PictureFilter } from '@photorelay/contract/jobs';
import { sql } from 'kysely';
import { makeTeam } from '../../../test/support/factories.ts';
import { setupProject, type Team } from '../../../test/support/scripts.ts';
import { startTestServer, type TestServer } from '../../../test/support/server.ts';

// Issue 28 item 2: the job log stays fast at 100,000 jobs (bench/job-log). What a test can hold
// it to: the file-name search has a trigram index to use (on PGlite too, which loads pg_trgm),
// the count stops at 1,000 ("more than 1,000"), and a filter by failed deliveries pages the
// pictures newest first straight from their jobs.

let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(async () => {
  await server.stop();
});

async function pictures(team: Team, filter: PictureFilter, pageSize = 25, pageIndex = 0) {
  const res = await team.owner.client.post<ListPicturesResponse>(
    `/api/${team.teamUuid}/pictures/${pageSize}/${pageIndex}`,
    filter,
  );
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body;
}

/** `count` pictures IMG_1 … IMG_<count>.JPG, each with one delivery to "Client FTP", every 7th failed. */
async function seedPictures(team: Team, projectId: number, count: number) {
  const db = server.running.ctx.db;
  await sql`
    insert into uploads (team_id, project_id, path, filename, size, sha256, blob_key, processed_blob_key,
                         processed_size, state, protocol, chain, received_at)
    select ${team.teamId}, ${projectId}, 'IMG_' || g || '.JPG', 'IMG_' || g || '.JPG', 1000, md5(g::text), 'k', 'k',
           1000, 'processed', 'ftp', '{}'::int[], now() - make_interval(secs => ${count} - g)
    from generate_series(1, ${count}) g`.execute(db);
  await sql`
    insert into jobs (team_id, upload_id, project_id, ftpservername, state, scheduletime, createtime, trynumber,
                      errortext, finished_at)
    select u.team_id, u.id, u.project_id, 'Client FTP', case when u.id % 7 = 0 then 'failed' else 'succeeded' end,
           u.received_at, u.received_at, case when u.id % 7 = 0 then 3 else 0 end,
           case when u.id % 7 = 0 then '530 Login incorrect.' end, u.received_at
    from uploads u where u.project_id = ${projectId}`.execute(db);
  await sql`analyze uploads`.execute(db);
  await sql`analyze jobs`.execute(db);
}

describe('the job log at scale', () => {
  test('the file-name search is answered from a trigram index', async () => {
    const team = await makeTeam(server);
    const project = await setupProject(server, team, 'Derby day');
    await seedPictures(team, project.id, 3000);

    const found = await pictures(team, { projectid: project.id, search: 'img_1234.' });
    assert.deepEqual(
      found.pictures.map((p) => p.filename),
      ['IMG_1234.JPG'],
    );
    // Without the index `ilike '%…%'` can only read every picture of the project.
    const db = server.running.ctx.db;
    const plan = await db.transaction().execute(async (trx) => {
      await sql`set local enable_seqscan = off`.execute(trx);
      return sql<{ 'QUERY PLAN': string }>`
        explain select id from uploads u where u.filename ilike '%IMG\\_1234.%'
      `.execute(trx);
    });
    const text = plan.rows.map((r) => r['QUERY PLAN']).join('\n');
    assert.match(text, /uploads_filename_trgm/, text);
  });

  test('past 1,000 matching pictures the count says "more than 1,000" and paging goes on', async () => {
    const team = await makeTeam(server);
    const project = await setupProject(server, team, 'Season');
    await seedPictures(team, project.id, 1200);

    const all = await pictures(team, { projectid: project.id });
    assert.equal(all.count, 1000);
    assert.equal(all.countCapped, true);
    // The page past the count still answers: 1,200 pictures, 25 a page, page 44 holds 1,101–1,125.
    const late = await pictures(team, { projectid: project.id }, 25, 44);
    assert.equal(late.pictures.length, 25);
    assert.equal(late.pictures[0]?.filename, 'IMG_100.JPG');

    const failed = await pictures(team, { projectid: project.id, state: 'failed' });
    const failedCount = await sql<{ n: number }>`
      select count(*)::int as n from jobs where project_id = ${project.id} and state = 'failed'`.execute(
      server.running.ctx.db,
    );
    assert.equal(failed.count, failedCount.rows[0]?.n);
    assert.equal(failed.countCapped, false);
  });

  test('failed pictures page newest first, with and without a date or name besides', async () => {
    const team = await makeTeam(server);
    const project = await setupProject(server, team, 'Cup');
    await seedPictures(team, project.id, 300);
    const db = server.running.ctx.db;
    const failedIds = (
      await sql<{ id: number }>`
        select id from uploads where project_id = ${project.id} and id % 7 = 0 order by id desc`.execute(db)
    ).rows.map((r) => r.id);

    const page1 = await pictures(team, { projectid: project.id, state: 'failed' }, 10, 0);
    const page2 = await pictures(team, { projectid: project.id, state: 'failed' }, 10, 1);
    assert.deepEqual(
      [...page1.pictures, ...page2.pictures].map((p) => p.uploadId),
      failedIds.slice(0, 20),
    );
    assert.ok(page1.pictures.every((p) => p.deliveries.every((d) => d.state === 'failed')));

    const named = await pictures(team, { projectid: project.id, state: 'failed', search: 'IMG_2' }, 200);
    assert.ok(named.pictures.length > 0);
    assert.ok(named.pictures.every((p) => p.filename.startsWith('IMG_2')));
    const expected = (
      await sql<{ id: number }>`
        select id from uploads where project_id = ${project.id} and id % 7 = 0 and filename like 'IMG\_2%'
        order by id desc`.execute(db)
    ).rows.map((r) => r.id);
    assert.equal(named.count, expected.length);
    assert.deepEqual(
      named.pictures.map((p) => p.uploadId),
      expected,
    );
  });
});
