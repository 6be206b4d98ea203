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
  for (let i = 0; i < 400; i++) {
    const res = await client.get<{ state: 'ok' | 'error' | null; detail: T }>(
      `/api/${teamUuid}/command/state/${started.body.commandId}/${started.body.token}`,
    );
    assert.equal(res.status, 200);
    if (res.body.state !== null) return { state: res.body.state, detail: res.body.detail };
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`command ${kind} did not finish`);
}
