import * as c from '@photorelay/contract/ftpservers';
import type { CommandHandlers } from '../../commands/registry.ts';
import { memberForCommand } from '../teams/service.ts';
import * as servers from './service.ts';

export const ftpServerCommands = {
  testftpserver: async (ctx, run) => {
    const input = c.testFtpServerBody.parse(run.payload);
    return servers.testFtpServer(ctx, await memberForCommand(ctx.db, run), input);
  },
} satisfies CommandHandlers;
