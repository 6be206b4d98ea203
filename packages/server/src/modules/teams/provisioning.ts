import type { Logger } from 'pino';
import type { Db } from '../../db/kysely.ts';
import { insertDefaultFlags } from '../calendar/flag-queries.ts';
import { defaultTeamFlags } from '../calendar/flags.ts';
import { defaultConfigFiles } from './default-config-files.ts';
import * as q from './queries.ts';

/**
 * Gives a new team its root folders, default calendar and config files, then marks it ready.
 * One transaction per team, so a crash leaves the team unready and it is simply done again.
 */
export async function provisionNextTeam(db: Db): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const team = await q.claimUnreadyTeam(trx);
    if (!team) return false;
    if (!(await q.hasRootFolders(trx, team.id))) {
      const roots = await q.insertRootFolders(trx, team.id);
      const calendars = roots.find((r) => r.type === 'calendars');
      if (calendars)
        await q.insertCalendar(trx, {
          teamId: team.id,
          folderId: calendars.id,
          name: team.name,
          refname: 'default',
        });
    }
    for (const file of defaultConfigFiles) {
      await q.insertConfigFileIfMissing(trx, team.id, file.name, Buffer.from(file.content, 'utf8'));
    }
    // The spec's event flags as the team's own list (issue 27 item 8); the owner changes it later.
    await insertDefaultFlags(trx, team.id, defaultTeamFlags);
    await q.markTeamReady(trx, team.id);
    return true;
  });
}

/** Runs provisioning in the background: on wake-up (a signup) and every few seconds. */
export function startProvisioning(db: Db, log: Logger) {
  let running = false;
  let stopped = false;
  const run = async () => {
    if (running || stopped) return;
    running = true;
    try {
      while (!stopped && (await provisionNextTeam(db))) {}
    } catch (error) {
      log.error({ err: error }, 'team provisioning failed');
    } finally {
      running = false;
    }
  };
  const timer = setInterval(run, 3000);
  void run();
  return {
    wake: () => void run(),
    stop: () => {
      stopped = true;
      clearInterval(timer);
    },
  };
}
