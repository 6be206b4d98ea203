import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { testFtpServer } from '@photorelay/contract/ftpservers';
import { ApiError, apiPost, NetworkError } from './client.ts';
import { CommandError, runCommand } from './commands.ts';

const team = '3f0c7c4e-2b1a-4c55-9a43-0d5b8f1e2a01';
const realFetch = globalThis.fetch;
type Call = { url: string; method: string; body?: string; headers: Record<string, string> };

function stubFetch(answers: Array<{ status?: number; json: unknown } | Error>): Call[] {
  const calls: Call[] = [];
  globalThis.fetch = (async (input: string | URL | Request, init?: RequestInit) => {
    calls.push({
      url: String(input),
      method: init?.method ?? 'GET',
      body: typeof init?.body === 'string' ? init.body : undefined,
      headers: (init?.headers ?? {}) as Record<string, string>,
    });
    const next = answers.shift();
    if (!next) throw new Error('unexpected request');
    if (next instanceof Error) throw next;
    return new Response(JSON.stringify(next.json), { status: next.status ?? 200 });
  }) as typeof fetch;
  return calls;
}

afterEach(() => {
  globalThis.fetch = realFetch;
});

describe('api client', () => {
  it('sends JSON with a body on writes, {} when there is nothing', async () => {
    const calls = stubFetch([{ json: { result: 'OK' } }]);
    await apiPost('user/logout');
    assert.equal(calls[0].url, '/api/user/logout');
    assert.equal(calls[0].body, '{}');
    assert.equal(calls[0].headers['Content-Type'], 'application/json');
  });

  it('turns an error field into an ApiError, even with status 200', async () => {
    stubFetch([{ status: 200, json: { error: 'MissingPermission', message: 'no' } }]);
    await assert.rejects(
      apiPost('x'),
      (error) => error instanceof ApiError && error.code === 'MissingPermission',
    );
    stubFetch([{ status: 401, json: { error: 'InvalidLogin' } }]);
    await assert.rejects(apiPost('x'), (error) => error instanceof ApiError && error.status === 401);
  });

  it('reports a lost connection as NetworkError', async () => {
    stubFetch([new TypeError('fetch failed')]);
    await assert.rejects(apiPost('x'), NetworkError);
  });
});

describe('runCommand (spec §4 async commands)', () => {
  it('polls the state until it is ok and returns the detail', async () => {
    const calls = stubFetch([
      { json: { result: 'OK', commandId: 7, token: 'abc' } },
      { json: { state: null } },
      { json: { state: null } },
      { json: { state: 'ok', detail: 'Success!!!' } },
    ]);
    const detail = await runCommand(team, testFtpServer, { host: 'h' }, { pollMs: 1 });
    assert.equal(detail, 'Success!!!');
    assert.equal(calls[0].url, `/api/${team}/command/testftpserver`);
    assert.equal(calls[0].method, 'POST');
    assert.deepEqual(JSON.parse(calls[0].body ?? ''), { host: 'h' });
    assert.equal(calls[1].url, `/api/${team}/command/state/7/abc`);
    assert.equal(calls.length, 4);
  });

  it('looks twice within the first half second, then every second (issue 28: test image in < 1 s)', async () => {
    const quick = stubFetch([
      { json: { result: 'OK', commandId: 10, token: 't' } },
      { json: { state: 'ok', detail: 'stamped' } },
    ]);
    let started = performance.now();
    assert.equal(await runCommand(team, testFtpServer, {}), 'stamped');
    const first = performance.now() - started;
    assert.equal(quick.length, 2);
    // A whole second before the first look made a 150 ms command take over a second.
    assert.ok(first >= 240 && first < 800, `first look after ${first.toFixed(0)} ms`);

    stubFetch([
      { json: { result: 'OK', commandId: 11, token: 't' } },
      { json: { state: null } },
      { json: { state: null } },
      { json: { state: 'ok', detail: 'done' } },
    ]);
    started = performance.now();
    assert.equal(await runCommand(team, testFtpServer, {}), 'done');
    const third = performance.now() - started;
    // 250 + 250 ms, then the spec's second: no faster polling beyond the first two looks.
    assert.ok(third >= 1490, `third look after ${third.toFixed(0)} ms`);
  });

  it('rejects with the detail when the command fails', async () => {
    stubFetch([
      { json: { result: 'OK', commandId: 8, token: 't' } },
      { json: { state: 'error', detail: 'Connection refused' } },
    ]);
    await assert.rejects(
      runCommand(team, testFtpServer, {}, { pollMs: 1 }),
      (error) => error instanceof CommandError && error.message === 'Connection refused',
    );
  });

  it('stops polling when aborted', async () => {
    stubFetch([{ json: { result: 'OK', commandId: 9, token: 't' } }, { json: { state: null } }]);
    const controller = new AbortController();
    const running = runCommand(team, testFtpServer, {}, { pollMs: 50, signal: controller.signal });
    setTimeout(() => controller.abort(), 10);
    await assert.rejects(running);
  });
});
