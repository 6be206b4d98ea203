import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { TestClient } from '../../test/support/client.ts';
import { contractRoutes, notYetInContract, routeKey } from '../../test/support/contract-routes.ts';
import { grant, makeFolder, makeMember, makeTeam, rootFolder } from '../../test/support/factories.ts';
import { startTestServer, type TestServer } from '../../test/support/server.ts';
import { encryptSecret } from '../crypto/secrets.ts';
import { type NodeRef, type TeamRouteInfo, teamRouteTable } from './access.ts';

// Built from the server's own route table: a route added later is checked without editing this test.
let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(() => server.stop());

type Actor = { name: string; client: TestClient };

test('every team route the server holds is a contract entry, with the access the contract declares', () => {
  const declared = contractRoutes();
  for (const route of teamRouteTable) {
    const key = routeKey(route.method, route.url);
    if (notYetInContract.has(key)) continue;
    const entry = declared.get(key);
    assert.ok(entry?.team, `${key} is not a team route of the contract`);
    assert.deepEqual(route.config, entry.access, `${key}: access`);
  }
  const held = new Set(teamRouteTable.map((route) => routeKey(route.method, route.url)));
  const teamEntries = [...declared].filter(([, route]) => route.team).map(([key]) => key);
  assert.deepEqual(
    teamEntries.filter((key) => !held.has(key)),
    [],
    'declared team routes the server does not hold',
  );
});

test('every team route answers each role as its declared access says', async () => {
  const db = server.running.ctx.db;
  const team = await makeTeam(server, 'Matrix');
  const other = await makeTeam(server, 'Other');
  const projectsRoot = await rootFolder(server, team, 'projects');
  const serversRoot = await rootFolder(server, team, 'ftpservers');
  const calendarsRoot = await rootFolder(server, team, 'calendars');
  const projectFolder = await makeFolder(server, team, projectsRoot.id, 'granted projects');
  const serverFolder = await makeFolder(server, team, serversRoot.id, 'granted servers');
  const photographerGroup = await db
    .selectFrom('groups')
    .select('id')
    .where('team_id', '=', team.teamId)
    .where('name', '=', 'Photographer')
    .executeTakeFirstOrThrow();

  const operator = await makeMember(server, team, 'Operator');
  const none = await makeMember(server, team, 'Photographer');
  const levels = {
    read: ['read'],
    write: ['read', 'write'],
    folder_admin: ['read', 'write', 'folder_admin'],
  } as const;
  const photographers: Record<keyof typeof levels, Awaited<ReturnType<typeof makeMember>>> = {
    read: await makeMember(server, team, 'Photographer'),
    write: await makeMember(server, team, 'Photographer'),
    folder_admin: await makeMember(server, team, 'Photographer'),
  };
  for (const [level, member] of Object.entries(photographers) as Array<[keyof typeof levels, typeof none]>) {
    for (const folder of [projectFolder, serverFolder, calendarsRoot.id]) {
      await grant(server, team, folder, { userId: member.userId }, [...levels[level]]);
    }
  }

  // Every route gets fresh items to act on, so a delete allowed earlier cannot change a later answer.
  let fixture = 0;
  let entryId = 0;
  let foreignIdCalls = 0;
  const freshNodes = async (): Promise<Record<NodeRef['kind'], number>> => {
    fixture++;
    const secret = encryptSecret(server.running.ctx.config.secretKey, 'pw');
    const project = await db
      .insertInto('projects')
      .values({
        team_id: team.teamId,
        folder_id: projectFolder,
        name: `p${fixture}`,
        ingest_username: `matrix-${team.teamId}-${fixture}`,
        ingest_password_enc: secret,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const ftpServer = await db
      .insertInto('ftp_servers')
      .values({
        team_id: team.teamId,
        folder_id: serverFolder,
        name: `s${fixture}`,
        host: 'example.com',
        port: null,
        username: 'u',
        password_enc: secret,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const calendar = await db
      .insertInto('calendars')
      .values({
        team_id: team.teamId,
        folder_id: calendarsRoot.id,
        name: `c${fixture}`,
        refname: `matrix-${fixture}`,
        url: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    // A calendar entry in the fresh calendar, for the calendar routes that name an entry.
    entryId = (
      await db
        .insertInto('calendar_entries')
        .values({
          team_id: team.teamId,
          calendar_id: calendar.id,
          start_at: '2026-03-14T14:30:00Z',
          end_at: '2026-03-14T16:30:00Z',
          scene: 'Bundesliga',
          category: 'sport',
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    return { folder: projectFolder, project: project.id, ftpserver: ftpServer.id, calendar: calendar.id };
  };
  let nodeIds = await freshNodes();
  const otherParams: Record<string, string> = {
    teamUuid: team.teamUuid,
    dbuserid: String(none.userId),
    dbgroupid: String(photographerGroup.id),
    name: 'sport.json',
  };
  // Calendar routes name entries and calendars by parameters the node guard does not resolve
  // (the services do): they get the fresh entry and calendar, and bodies that pass validation.
  const isEntryRoute = (url: string) =>
    /calendarentry|calendar\/entry\/|calendar\/xmp|mybookings\//.test(url);
  const calendarParam = (url: string, name: string): string | undefined => {
    if (name === 'dbcalendarid') return String(nodeIds.calendar);
    if (name === 'entryId' || (name === 'id' && isEntryRoute(url))) return String(entryId);
    return undefined;
  };
  const calendarBody = (route: TeamRouteInfo): Record<string, unknown> | undefined => {
    const entry = { startdatetime: '2026-03-14T15:30:00+01:00', category: 'sport', scene: 'Bundesliga' };
    const bodies: Record<string, Record<string, unknown>> = {
      'POST /api/:teamUuid/calendar/entries': { calendarIds: [nodeIds.calendar], startDate: '2026-03-01' },
      'POST /api/:teamUuid/calendar/:dbcalendarid/entry': entry,
      'PUT /api/:teamUuid/calendar/:dbcalendarid/entry/:id': entry,
      'PUT /api/:teamUuid/calendarentry/:id/flag/:bit': { value: true },
      'POST /api/:teamUuid/booking': { entryId, userId: none.userId, bookingState: 'accepted' },
      'POST /api/:teamUuid/calendar/suggestentries': { userIds: [none.userId], entryIds: [entryId] },
      'POST /api/:teamUuid/calendar/mybookings/:id': { answer: 'accepted' },
      'PUT /api/:teamUuid/timezone': { timeZone: 'Europe/Berlin' },
    };
    return bodies[`${route.method} ${route.url}`];
  };
  const call = (actor: Actor, route: TeamRouteInfo, teamUuid = team.teamUuid) => {
    const node = route.config.access === 'folder' ? route.config.node : undefined;
    const path = route.url.replace(/:(\w+)/g, (_m, name: string) =>
      name === 'teamUuid'
        ? teamUuid
        : node?.param === name
          ? String(nodeIds[node.kind])
          : (calendarParam(route.url, name) ?? otherParams[name] ?? '1'),
    );
    const body = node?.body ? { [node.body]: nodeIds[node.kind] } : (calendarBody(route) ?? {});
    return actor.client.request(route.method, path, body);
  };

  assert.ok(teamRouteTable.length >= 15, `route table has ${teamRouteTable.length} routes`);
  const loggedOut: Actor = { name: 'logged out', client: server.client() };
  const stranger: Actor = { name: 'other team', client: other.owner.client };
  // Allowed means the access check let the call through: its own answer may refuse the input
  // (400, 404, 409), but a 5xx is a fault of ours and fails the matrix.
  const allowed = (status: number) => status !== 401 && status !== 403 && status < 500;

  for (const route of teamRouteTable) {
    const label = `${route.method} ${route.url}`;
    nodeIds = await freshNodes();
    assert.equal((await call(loggedOut, route)).status, 401, `${label}: logged out`);
    const foreign = await call(stranger, route);
    assert.deepEqual([foreign.status, foreign.body.error], [404, 'NotFound'], `${label}: other team`);
    // This team's calendar ids, sent by another team's owner to their own team: unknown there.
    if (calendarBody(route) || /:(dbcalendarid|entryId)\b/.test(route.url) || isEntryRoute(route.url)) {
      const body = calendarBody(route);
      const namesIds =
        /:(dbcalendarid|entryId|id)\b/.test(route.url) || /[Ii]ds?"/.test(JSON.stringify(body));
      if (namesIds) {
        const theirs = await call(stranger, route, other.teamUuid);
        assert.deepEqual(
          [theirs.status, theirs.body.error],
          [404, 'NotFound'],
          `${label}: ids of another team`,
        );
        foreignIdCalls++;
      }
    }

    if (route.config.access === 'member') {
      for (const actor of [none, photographers.read])
        assert.ok(
          allowed((await call({ name: 'p', client: actor.client }, route)).status),
          `${label}: photographer`,
        );
    } else if (route.config.access === 'teamAdmin') {
      for (const actor of [none, photographers.folder_admin]) {
        const res = await call({ name: 'p', client: actor.client }, route);
        assert.deepEqual([res.status, res.body.error], [403, 'MissingPermission'], `${label}: photographer`);
      }
    } else {
      const needs = route.config.needs;
      const res = await call({ name: 'none', client: none.client }, route);
      assert.deepEqual(
        [res.status, res.body.error],
        [404, 'NotFound'],
        `${label}: photographer without rights`,
      );
      for (const [level, member] of Object.entries(photographers) as Array<
        [keyof typeof levels, typeof none]
      >) {
        const holds = (levels[level] as readonly string[]).includes(needs);
        const answer = await call({ name: level, client: member.client }, route);
        if (holds)
          assert.ok(allowed(answer.status), `${label}: photographer with ${level} got ${answer.status}`);
        else
          assert.deepEqual(
            [answer.status, answer.body.error],
            [403, 'MissingPermission'],
            `${label}: photographer with ${level}`,
          );
      }
    }
  }
  assert.ok(foreignIdCalls >= 14, `calendar routes checked with another team's ids: ${foreignIdCalls}`);
  // Owner and Operator last: their calls may really delete the fixtures.
  for (const route of teamRouteTable) {
    nodeIds = await freshNodes();
    for (const actor of [operator.client, team.owner.client]) {
      const res = await call({ name: 'admin', client: actor }, route);
      assert.ok(
        allowed(res.status),
        `${route.method} ${route.url}: owner/operator got ${res.status} ${JSON.stringify(res.body)}`,
      );
    }
  }
});
