import type { AppContext } from '../context.ts';

export interface CommandRun {
  id: number;
  teamId: number;
  userId: number;
  payload: unknown;
}

/** A command's work; what it returns becomes `detail` of state ok, what it throws the error text. */
export type CommandHandler = (ctx: AppContext, run: CommandRun) => Promise<unknown>;

const handlers = new Map<string, CommandHandler>();

export function defineCommand(kind: string, handler: CommandHandler) {
  if (handlers.has(kind)) throw new Error(`command ${kind} defined twice`);
  handlers.set(kind, handler);
}

export const commandHandler = (kind: string) => handlers.get(kind);
