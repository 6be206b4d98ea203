// Async commands (spec §4, §7): POST starts the command, then its state is polled every second
// (twice sooner at first).
import { commandStarted, getCommandState } from '@photorelay/contract/commands';
import { limits } from '@photorelay/contract/limits';
import type { TeamRoute } from '@photorelay/contract/route';
import { type UseMutationResult, useMutation } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import type { z } from 'zod';
import { callRoute } from './call.ts';
import type { ErrorMeta } from './query-client.ts';

/** A command's start route as the contract declares it. */
export type CommandRoute = TeamRoute;
type BodyOf<R extends TeamRoute> = R['body'] extends z.ZodType ? z.input<R['body']> : undefined;

function startCommand(teamUuid: string, command: CommandRoute, body: unknown, signal?: AbortSignal) {
  return callRoute(command, { teamUuid, body, signal } as never).then((answer) =>
    commandStarted.parse(answer),
  );
}

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
const quickLookMs = 250;

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
 * Starts the command (e.g. the contract's `testFtpServer`) for the team and resolves with the
 * command's `detail` once its state is 'ok'; rejects with a CommandError on 'error'.
 */
export async function runCommand(
  teamUuid: string,
  command: CommandRoute,
  body: unknown = {},
  options: RunCommandOptions = {},
): Promise<unknown> {
  const { signal, pollMs = limits.commandPollMs } = options;
  const started = await startCommand(teamUuid, command, body, signal);
  const params = { commandId: started.commandId, token: started.token };
  for (let look = 0; ; look++) {
    // The first two looks come after 250 ms each: most commands (a test image: ~150 ms on the
    // server) are done by then, and waiting a whole second made the preview take 1.2–2.1 s
    // (issue 28 item 8). From then on every `pollMs` (spec §4: 1 s).
    await delay(look < 2 ? Math.min(quickLookMs, pollMs) : pollMs, signal);
    const state = await callRoute(getCommandState, { teamUuid, params, signal });
    if (state.state === 'ok') return state.detail;
    if (state.state === 'error') throw new CommandError(state.detail);
  }
}

/**
 * Mutation running one async command; polling stops when the component unmounts.
 * `mutate(body)` starts it; `data` is the command's detail.
 */
export function useCommand<R extends TeamRoute>(
  teamUuid: string | undefined,
  command: R,
  meta?: ErrorMeta,
): UseMutationResult<unknown, Error, BodyOf<R>>;
export function useCommand(teamUuid: string | undefined, command: CommandRoute, meta?: ErrorMeta) {
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
    mutationFn: async (body: unknown) => {
      if (!teamUuid) throw new Error('No current team');
      const controller = new AbortController();
      controllers.current.add(controller);
      try {
        return await runCommand(teamUuid, command, body, { signal: controller.signal });
      } finally {
        controllers.current.delete(controller);
      }
    },
  });
}
