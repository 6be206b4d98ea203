// Folder tree benchmark: a team with 5,000 tree nodes (folders nested four levels deep,
// projects, FTP servers, permissions for a group and a user), loaded through the real service
// (`folderTree(db, member)`) and over HTTP (GET /api/{team}/folders), as the owner (sees all) and
// as a photographer (rights on part of the tree). Baselines in the same run: a trivial query
// (`select 1`) and a naive walk with one query per folder. See ../README.md.
//
//   npx tsx bench/tree/run.ts [--nodes 5000] [--runs 50] [--naive-runs 5] [--postgres URL]
import os from 'node:os';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import pino from 'pino';
import { loadConfig } from '../../packages/server/src/config.ts';
import { hashPassword } from '../../packages/server/src/crypto/tokens.ts';
import { type Db, openDatabase } from '../../packages/server/src/db/kysely.ts';
import type { Permission } from '../../packages/server/src/db/schema.ts';
import * as accountQueries from '../../packages/server/src/modules/account/queries.ts';
import { loadAccess } from '../../packages/server/src/modules/folders/permissions.ts';
import { listTeamPermissions, listTreeRows } from '../../packages/server/src/modules/folders/queries.ts';
import { folderTree } from '../../packages/server/src/modules/folders/service.ts';
import { buildTree } from '../../packages/server/src/modules/folders/tree.ts';
import * as teamQueries from '../../packages/server/src/modules/teams/queries.ts';
import { requireMember } from '../../packages/server/src/modules/teams/service.ts';
import { startPhotoRelay } from '../../packages/server/src/runtime.ts';
import { TestClient } from '../../packages/server/test/support/client.ts';
import { prepareData } from '../../packages/server/test/support/prepared-data.ts';

const { values: opts } = parseArgs({
  options: {
    nodes: { type: 'string', default: '5000' },
    runs: { type: 'string', default: '50' },
    'naive-runs': { type: 'string', default: '5' },
    postgres: { type: 'string' },
  },
});
const targetNodes = Number(opts.nodes);
const runs = Number(opts.runs);
const naiveRuns = Number(opts['naive-runs']);
if (opts.postgres) {
  process.env.PHOTORELAY_TEST_DB = 'postgres';
  process.env.TEST_DATABASE_URL = opts.postgres;
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return (
    sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? Number.NaN
  );
};
const fmt = (n: number, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : '-');

async function timed(count: number, warmup: number, run: () => Promise<unknown>): Promise<number[]> {
  for (let i = 0; i < warmup; i++) await run();
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    await run();
    times.push(performance.now() - started);
  }
  return times;
}

/** The rows in random order, so that names do not arrive sorted (as after years of use). */
function shuffled<T>(rows: T[]): T[] {
  const out = [...rows];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

/** Inserts rows in batches and returns their ids in order. */
async function insertMany<T extends Record<string, unknown>>(
  db: Db,
  table: 'folders' | 'projects' | 'ftp_servers',
  rows: T[],
): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < rows.length; i += 500) {
    const batch = rows.slice(i, i + 500);
    const inserted = await db
      .insertInto(table)
      .values(batch as never)
      .returning('id')
      .execute();
    ids.push(...inserted.map((r) => r.id));
  }
  return ids;
}

/**
 * The team's tree: under the projects root 10 folders x 5 x 4 (260 folders, 200 leaves) with
 * projects in the leaves; under the FTP servers root 10 x 5 (60 folders) with the servers.
 * Projects and servers fill up the rest to `targetNodes`, 2/3 projects.
 */
async function seedTree(db: Db, teamId: number, projectsRoot: number, serversRoot: number) {
  const folderLevel = async (parents: number[], perParent: number, prefix: string) =>
    insertMany(
      db,
      'folders',
      parents.flatMap((parent, p) =>
        Array.from({ length: perParent }, (_, i) => ({
          team_id: teamId,
          parent_id: parent,
          type: 'folders',
          name: `${prefix} ${p + 1}.${i + 1}`,
        })),
      ),
    );
  const p1 = await folderLevel([projectsRoot], 10, 'Season');
  const p2 = await folderLevel(p1, 5, 'Competition');
  const p3 = await folderLevel(p2, 4, 'Matchday');
  const s1 = await folderLevel([serversRoot], 10, 'Agencies');
  const s2 = await folderLevel(s1, 5, 'Region');
  const folders = p1.length + p2.length + p3.length + s1.length + s2.length;
  const items = Math.max(0, targetNodes - folders);
  const projectCount = Math.round((items * 2) / 3);
  const serverCount = items - projectCount;
  const projectIds = await insertMany(
    db,
    'projects',
    shuffled(
      Array.from({ length: projectCount }, (_, i) => ({
        team_id: teamId,
        folder_id: p3[i % p3.length] as number,
        name: `Game ${String(i + 1).padStart(5, '0')}`,
        ingest_username: `bench${teamId}x${i}`,
        ingest_password_enc: 'x',
      })),
    ),
  );
  const serverIds = await insertMany(
    db,
    'ftp_servers',
    shuffled(
      Array.from({ length: serverCount }, (_, i) => ({
        team_id: teamId,
        folder_id: s2[i % s2.length] as number,
        name: `Agency ${String(i + 1).padStart(5, '0')}`,
        host: 'ftp.example.com',
        username: 'user',
        password_enc: 'x',
      })),
    ),
  );
  return { p1, p2, p3, s1, s2, folders, projects: projectIds.length, servers: serverIds.length };
}

/** One query per folder for its sub-folders, projects, FTP servers and calendars: the walk the one-query tree replaced. */
async function naiveWalk(db: Db, teamId: number): Promise<number> {
  let nodes = 0;
  const roots = await db
    .selectFrom('folders')
    .select(['id', 'name', 'type'])
    .where('team_id', '=', teamId)
    .where('parent_id', 'is', null)
    .execute();
  const walk = async (folderId: number): Promise<void> => {
    const [folders, projects, servers, calendars] = await Promise.all([
      db
        .selectFrom('folders')
        .select(['id', 'name', 'type'])
        .where('team_id', '=', teamId)
        .where('parent_id', '=', folderId)
        .execute(),
      db
        .selectFrom('projects')
        .select(['id', 'name'])
        .where('team_id', '=', teamId)
        .where('folder_id', '=', folderId)
        .execute(),
      db
        .selectFrom('ftp_servers')
        .select(['id', 'name'])
        .where('team_id', '=', teamId)
        .where('folder_id', '=', folderId)
        .execute(),
      db
        .selectFrom('calendars')
        .select(['id', 'name'])
        .where('team_id', '=', teamId)
        .where('folder_id', '=', folderId)
        .execute(),
    ]);
    nodes += folders.length + projects.length + servers.length + calendars.length;
    for (const f of folders) await walk(f.id);
  };
  for (const root of roots) {
    nodes++;
    await walk(root.id);
  }
  return nodes;
}

async function main() {
  console.log(
    `machine: ${os.cpus().length} vCPU (${os.cpus()[0]?.model.trim()}), Node ${process.version}, load ${os.loadavg()[0]?.toFixed(1)}, database: ${opts.postgres ? 'PostgreSQL' : 'PGlite'}`,
  );
  const data = await prepareData();
  const db = await openDatabase({ databaseUrl: data.databaseUrl, dataDir: data.dataDir });
  let stopServer: (() => Promise<void>) | undefined;
  try {
    const { team } = data;
    const tree = await seedTree(db, team.teamId, team.projectsRootId, team.ftpserversRootId);

    // A photographer with read on 3 seasons and write on some competitions; the Photographer
    // group with read on one agencies folder; the owner's user on a few folders (shown to admins).
    const password = 'correct horse battery';
    const photographerEmail = `photographer-${Date.now()}@example.com`;
    const photographerId = await accountQueries.insertUser(db, {
      email: photographerEmail,
      passwordHash: await hashPassword(password),
      firstName: 'Photo',
      lastName: 'Grapher',
      language: 'en',
      timezone: 'Europe/Berlin',
      verified: true,
    });
    const group = await teamQueries.findGroupByName(db, team.teamId, 'Photographer');
    await teamQueries.insertMember(db, team.teamId, photographerId, group.id);
    await accountQueries.setCurrentTeam(db, photographerId, team.teamId);
    const read: Permission[] = ['read'];
    const readWrite: Permission[] = ['read', 'write'];
    const grants = [
      ...tree.p1
        .slice(0, 3)
        .map((folder_id) => ({ folder_id, user_id: photographerId, group_id: null, permissions: read })),
      ...tree.p2
        .slice(0, 10)
        .map((folder_id) => ({ folder_id, user_id: photographerId, group_id: null, permissions: readWrite })),
      ...tree.s1
        .slice(0, 1)
        .map((folder_id) => ({ folder_id, user_id: null, group_id: group.id, permissions: read })),
      ...tree.p3
        .slice(0, 40)
        .map((folder_id) => ({ folder_id, user_id: null, group_id: group.id, permissions: read })),
    ];
    await db
      .insertInto('folder_permissions')
      .values(grants.map((g) => ({ ...g, team_id: team.teamId })))
      .execute();
    const ownerUser = await accountQueries.findUserByEmail(db, team.email);
    if (!ownerUser) throw new Error('owner missing');
    const owner = await requireMember(db, team.teamUuid, ownerUser.id);
    const photographer = await requireMember(db, team.teamUuid, photographerId);

    const [allRows] = await Promise.all([
      sql<{ n: number }>`select
          (select count(*) from folders where team_id = ${team.teamId} and parent_id is not null)
        + (select count(*) from projects where team_id = ${team.teamId})
        + (select count(*) from ftp_servers where team_id = ${team.teamId}) as n`.execute(db),
    ]);
    const nodeCount = Number(allRows.rows[0]?.n ?? 0);

    // The HTTP server of the product, in this process, on the same database (web role only).
    const config = loadConfig({
      PORT: '1',
      HOST: '127.0.0.1',
      DATA_DIR: data.dataDir,
      SEED_DEMO: '0',
      LOG_LEVEL: 'warn',
      AUTH_RATE_LIMIT: '1000',
    });
    config.PORT = 0;
    const running = await startPhotoRelay(config, { role: 'web', db, log: pino({ level: 'warn' }) });
    stopServer = () => running.stop();
    const url = running.url as string;
    const login = async (email: string) => {
      const client = new TestClient(url);
      const res = await client.post('/api/user/login', { email, password });
      if (res.status !== 200) throw new Error(`login ${email}: ${res.status}`);
      return client;
    };
    const ownerHttp = await login(team.email);
    const photographerHttp = await login(photographerEmail);
    let ownerBytes = 0;
    let photographerBytes = 0;
    const countNodes = (nodes: Array<{ children: unknown[] }>): number =>
      nodes.reduce((sum, n) => sum + 1 + countNodes(n.children as Array<{ children: unknown[] }>), 0);
    const visible = {
      owner: countNodes(await folderTree(db, owner)),
      photographer: countNodes(await folderTree(db, photographer)),
    };

    const results: Array<[string, number[], string]> = [];
    results.push([
      'baseline: select 1 (one round trip)',
      await timed(runs, 5, () => sql`select 1`.execute(db)),
      '',
    ]);
    results.push([
      'folderTree(db, owner)',
      await timed(runs, 5, () => folderTree(db, owner)),
      `${visible.owner} nodes`,
    ]);
    results.push([
      'folderTree(db, photographer)',
      await timed(runs, 5, () => folderTree(db, photographer)),
      `${visible.photographer} nodes`,
    ]);
    results.push([
      'GET /api/{team}/folders, owner',
      await timed(runs, 5, async () => {
        const res = await ownerHttp.get(`/api/${team.teamUuid}/folders`);
        if (res.status !== 200) throw new Error(`folders: ${res.status}`);
        ownerBytes = JSON.stringify(res.body).length;
      }),
      '',
    ]);
    results.push([
      'GET /api/{team}/folders, photographer',
      await timed(runs, 5, async () => {
        const res = await photographerHttp.get(`/api/${team.teamUuid}/folders`);
        if (res.status !== 200) throw new Error(`folders: ${res.status}`);
        photographerBytes = JSON.stringify(res.body).length;
      }),
      '',
    ]);
    // Where folderTree's time goes.
    const treeRows = await listTreeRows(db, team.teamId);
    const permissionRows = await listTeamPermissions(db, team.teamId);
    const ownerAccess = await loadAccess(db, owner);
    const photographerAccess = await loadAccess(db, photographer);
    const ownerTree = buildTree(treeRows, permissionRows, ownerAccess);
    results.push([
      '  part: listTreeRows (the one query)',
      await timed(runs, 5, () => listTreeRows(db, team.teamId)),
      `${treeRows.length} rows`,
    ]);
    results.push([
      '  part: listTeamPermissions',
      await timed(runs, 5, () => listTeamPermissions(db, team.teamId)),
      `${permissionRows.length} rows`,
    ]);
    results.push([
      '  part: loadAccess(photographer)',
      await timed(runs, 5, () => loadAccess(db, photographer)),
      '',
    ]);
    results.push([
      '  part: buildTree, owner',
      await timed(runs, 5, async () => buildTree(treeRows, permissionRows, ownerAccess)),
      'no I/O',
    ]);
    results.push([
      '  part: buildTree, photographer',
      await timed(runs, 5, async () => buildTree(treeRows, permissionRows, photographerAccess)),
      'no I/O',
    ]);
    results.push([
      '  part: JSON.stringify(owner tree)',
      await timed(runs, 5, async () => JSON.stringify({ folders: ownerTree })),
      '',
    ]);
    let walked = 0;
    results.push([
      'baseline: naive walk, one query per folder',
      await timed(naiveRuns, 1, async () => {
        walked = await naiveWalk(db, team.teamId);
      }),
      '',
    ]);
    const note = (name: string, text: string) => {
      const row = results.find((r) => r[0] === name);
      if (row) row[2] = text;
    };
    note('GET /api/{team}/folders, owner', `${(ownerBytes / 1024).toFixed(0)} KB JSON`);
    note('GET /api/{team}/folders, photographer', `${(photographerBytes / 1024).toFixed(0)} KB JSON`);
    note(
      'baseline: naive walk, one query per folder',
      `${tree.folders + 4} folders x 4 queries, ${walked} nodes`,
    );

    console.log(
      `\n${nodeCount} tree nodes: ${tree.folders} folders, ${tree.projects} projects, ${tree.servers} FTP servers (+ 4 roots, a calendar); ${grants.length} permission rows`,
    );
    const rows = [
      ['measure', 'runs', 'median ms', 'p95 ms', ''],
      ...results.map(([name, times, note]) => [
        name,
        String(times.length),
        fmt(percentile(times, 50)),
        fmt(percentile(times, 95)),
        note,
      ]),
    ];
    const widths = [0, 1, 2, 3, 4].map((i) => Math.max(...rows.map((r) => r[i]?.length ?? 0)));
    for (const row of rows)
      console.log(
        row
          .map((c, i) => (i > 0 && i < 4 ? c.padStart(widths[i] ?? 0) : c.padEnd(widths[i] ?? 0)))
          .join('  ')
          .trimEnd(),
      );
    const http = percentile(results.find((r) => r[0] === 'GET /api/{team}/folders, owner')?.[1] ?? [], 50);
    console.log(
      `\ngoal: tree < 100 ms on the server: GET /folders (owner) median ${fmt(http)} ms -> ${http < 100 ? 'met' : 'NOT met'}`,
    );
  } finally {
    await stopServer?.();
    await db.destroy();
    await data.remove();
  }
}

await main();
