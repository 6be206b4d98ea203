// Async commands (spec §4, §7): POST starts the command, then its state is polled every second.
import { commandStarted, commandStateResponse } from '@photorelay/contract/commands';
import { limits } from '@photorelay/contract/limits';
import { useMutation } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { apiGet, apiPost, teamPath } from './client.ts';
import type { ErrorMeta } from './query-client.ts';

/** The command finished with state 'error'; `detail` is what the server reported. */
export class CommandError extends Error {
  override readonly name = 'CommandError';
  constructor(readonly detail: unknown) {
    super(
      typeof detail === 'string' ? detail : detail === undefined ? 'Command failed' : JSON.stringify(detail),
    );
  }
}

export type RunCommandOptions = { signal?: AbortSignal; pollMs?: number };

const delay = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });

/**
 * Starts `commandPath` (e.g. `command/testftpserver`) for the team and resolves with the
 * command's `detail` once its state is 'ok'; rejects with a CommandError on 'error'.
 */
export async function runCommand(
  teamUuid: string,
  commandPath: string,
  body: unknown = {},
  options: RunCommandOptions = {},
): Promise<unknown> {
  const { signal, pollMs = limits.commandPollMs } = options;
  const started = await apiPost(teamPath(teamUuid, commandPath), body, { schema: commandStarted, signal });
  const statePath = teamPath(
    teamUuid,
    `command/state/${started.commandId}/${encodeURIComponent(started.token)}`,
  );
  for (;;) {
    await delay(pollMs, signal);
    const state = await apiGet(statePath, { schema: commandStateResponse, signal });
    if (state.state === 'ok') return state.detail;
    if (state.state === 'error') throw new CommandError(state.detail);
  }
}

/**
 * Mutation running one async command; polling stops when the component unmounts.
 * `mutate(body)` starts it; `data` is the command's detail.
 */
export function useCommand<TBody = unknown>(
  teamUuid: string | undefined,
  commandPath: string,
  meta?: ErrorMeta,
) {
  const controllers = useRef(new Set<AbortController>());
  useEffect(() => {
    const running = controllers.current;
    return () => {
      for (const controller of running) controller.abort();
      running.clear();
    };
  }, []);
  return useMutation({
    meta,
    mutationFn: async (body: TBody) => {
      if (!teamUuid) throw new Error('No current team');
      const controller = new AbortController();
      controllers.current.add(controller);
      try {
        return await runCommand(teamUuid, commandPath, body, { signal: controller.signal });
      } finally {
        controllers.current.delete(controller);
      }
    },
  });
}
