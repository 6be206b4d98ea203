import assert from 'node:assert/strict';
import type { TestClient } from './client.ts';

export interface CommandOutcome<T> {
  state: 'ok' | 'error';
  detail: T;
}

/** Starts a command and polls its state until it finished. */
export async function runCommand<T = unknown>(
  client: TestClient,
  teamUuid: string,
  kind: string,
  body: unknown,
): Promise<CommandOutcome<T>> {
  const started = await client.post<{ result: string; commandId: number; token: string }>(
    `/api/${teamUuid}/command/${kind}`,
    body,
  );
  assert.equal(started.status, 200, `${kind}: ${started.status} ${JSON.stringify(started.body)}`);
  return waitForCommand<T>(client, teamUuid, started.body.commandId, started.body.token);
}

/** Polls a command's state (GET team/command/state/{commandId}/{token}) until it finished. */
export async function waitForCommand<T = unknown>(
  client: TestClient,
  teamUuid: string,
  commandId: number,
  token: string,
): Promise<CommandOutcome<T>> {
  for (let i = 0; i < 400; i++) {
    const res = await client.get<{ state: 'ok' | 'error' | null; detail: T }>(
      `/api/${teamUuid}/command/state/${commandId}/${token}`,
    );
    assert.equal(res.status, 200);
    if (res.body.state !== null) return { state: res.body.state, detail: res.body.detail };
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`command ${commandId} did not finish`);
}
