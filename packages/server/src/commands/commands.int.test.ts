import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { sql } from 'kysely';
import { waitForCommand } from '../../test/support/commands.ts';
import { makeMember, makeTeam } from '../../test/support/factories.ts';
import { startTestServer, type TestServer } from '../../test/support/server.ts';
import { randomToken, sha256 } from '../crypto/tokens.ts';
import * as q from './queries.ts';
import type { CommandHandlers } from './registry.ts';
import { startCommandRunner } from './runner.ts';

const runs = new Map<string, number>();
const commandHandlers: CommandHandlers = {
  'test/echo': async (_ctx, run) => {
    const { text } = run.payload as { text: string };
    runs.set(text, (runs.get(text) ?? 0) + 1);
    if (text === 'fail') throw new Error('Connection refused by test');
    return { echoed: text };
  },
};

let server: TestServer;
before(async () => {
  server = await startTestServer({}, { commandHandlers });
});
after(() => server.stop());

async function store(teamId: number, userId: number, text: string) {
  const token = randomToken(18);
  const row = await q.insertCommand(server.running.ctx.db, {
    teamId,
    userId,
    kind: 'test/echo',
    tokenHash: sha256(token),
    payload: { text },
  });
  server.running.ctx.wake.commands();
  return { commandId: row.id, token };
}

test('a command runs once and its state is polled with its token', async () => {
  const team = await makeTeam(server);
  const text = `hello-${team.teamId}`;
  const cmd = await store(team.teamId, team.owner.userId, text);
  assert.deepEqual(await waitForCommand(team.owner.client, team.teamUuid, cmd.commandId, cmd.token), {
    state: 'ok',
    detail: { echoed: text },
  });

  const failing = await store(team.teamId, team.owner.userId, 'fail');
  assert.deepEqual(await waitForCommand(team.owner.client, team.teamUuid, failing.commandId, failing.token), {
    state: 'error',
    detail: 'Connection refused by test',
  });

  const wrongToken = await team.owner.client.get(`/api/${team.teamUuid}/command/state/${cmd.commandId}/nope`);
  assert.equal(wrongToken.status, 404);
  const other = await makeTeam(server);
  const foreign = await other.owner.client.get(
    `/api/${other.teamUuid}/command/state/${cmd.commandId}/${cmd.token}`,
  );
  assert.equal(foreign.status, 404, 'another team cannot read the command');
  assert.equal(
    (await team.owner.client.get(`/api/${team.teamUuid}/command/state/abc/${cmd.token}`)).status,
    400,
  );
});

test('only the member who started a command reads its state, even with its id and token', async () => {
  const team = await makeTeam(server);
  const cmd = await store(team.teamId, team.owner.userId, `mine-${team.teamId}`);
  const url = `/api/${team.teamUuid}/command/state/${cmd.commandId}/${cmd.token}`;
  await waitForCommand(team.owner.client, team.teamUuid, cmd.commandId, cmd.token);
  // A colleague of the same team (the id and token leaked, e.g. from a log or a shared screen).
  const colleague = await makeMember(server, team, 'Operator');
  const read = await colleague.client.get(url);
  assert.equal(read.status, 404, 'a colleague does not read the command');
  assert.equal(read.body.detail, undefined);
  assert.equal((await team.owner.client.get(url)).status, 200);
});

test('a restart does not repeat a finished command, and ends an interrupted one as an error', async () => {
  const team = await makeTeam(server);
  const db = server.running.ctx.db;
  const done = await store(team.teamId, team.owner.userId, `done-${team.teamId}`);
  await waitForCommand(team.owner.client, team.teamUuid, done.commandId, done.token);

  // A command a crashed runner had leased: once the lease has run out it ends as an error with a
  // plain reason instead of being run again (an input that crashed the server would crash it again).
  // Stored as leased (attempts 1) in one statement, so the running runner cannot take it first.
  const token = randomToken(18);
  const { id } = await db
    .insertInto('commands')
    .values({
      team_id: team.teamId,
      user_id: team.owner.userId,
      kind: 'test/echo',
      token_hash: sha256(token),
      payload: JSON.stringify({ text: `crashed-${team.teamId}` }),
      state: null,
      detail: null,
      locked_until: sql`now() + interval '1 second'`,
      attempts: 1,
      finished_at: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const crashed = { commandId: id, token };

  await server.stop();
  server = await startTestServer({}, { commandHandlers });
  const client = (await import('../../test/support/factories.ts')).login(server, team.owner.email);
  const result = await waitForCommand(await client, team.teamUuid, crashed.commandId, crashed.token);
  assert.equal(result.state, 'error');
  assert.match(
    String(result.detail),
    /interrupted \(the server stopped while it ran\) and was not run again/,
  );
  assert.equal(runs.get(`crashed-${team.teamId}`), undefined, 'the interrupted command is not run again');
  const after = await store(team.teamId, team.owner.userId, `after-${team.teamId}`);
  assert.equal((await waitForCommand(await client, team.teamUuid, after.commandId, after.token)).state, 'ok');
  assert.equal(runs.get(`done-${team.teamId}`), 1);
});

test('a runner without a handler for one of the command kinds does not start', async () => {
  const { commandHandlers: all, processingSteps } = await import('../runtime.ts');
  const { testftpserver: _left, ...handlers } = all(processingSteps);
  assert.throws(
    // @ts-expect-error: the type asks for every kind too
    () => startCommandRunner(server.running.ctx, { handlers }),
    /no handler for command kind testftpserver/,
  );
});
