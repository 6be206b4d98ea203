import type { AppContext } from '../context.ts';
import type { CommandKind } from './kinds.ts';

export interface CommandRun {
  id: number;
  teamId: number;
  userId: number;
  payload: unknown;
}

/** A command's work; what it returns becomes `detail` of state ok, what it throws the error text. */
export type CommandHandler = (ctx: AppContext, run: CommandRun) => Promise<unknown>;

/** Handlers by command kind: each area exports its own, runtime.ts hands them all to the runner. */
export type CommandHandlers = Readonly<Record<string, CommandHandler>>;

/** Every kind's handler (tests may add kinds of their own). */
export type AllCommandHandlers = Readonly<Record<CommandKind, CommandHandler>> & CommandHandlers;

/** The kinds of `kinds` without a handler in `handlers`. */
export const missingHandlers = (kinds: readonly string[], handlers: CommandHandlers) =>
  kinds.filter((kind) => typeof handlers[kind] !== 'function');
