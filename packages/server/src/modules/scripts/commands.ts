import * as c from '@photorelay/contract/scripts';
import type { CommandHandlers } from '../../commands/registry.ts';
import { memberForCommand } from '../teams/service.ts';
import * as scripts from './service.ts';

export const scriptCommands = {
  storescriptfile: async (ctx, run) =>
    scripts.storeScriptFile(
      ctx,
      await memberForCommand(ctx.db, run),
      c.storeScriptFileBody.parse(run.payload),
    ),
} satisfies CommandHandlers;
