import fs from 'node:fs';
import path from 'node:path';
import { hashPassword, randomToken } from '../../crypto/tokens.ts';
import type { Db } from '../../db/kysely.ts';
import * as accountQueries from '../account/queries.ts';
import { provisionNextTeam } from './provisioning.ts';
import { createTeamOwnedBy } from './service.ts';

export const demoEmail = 'demo@photorelay.local';

export interface DemoLogin {
  email: string;
  /** The file that keeps the password (readable by the server's user only). */
  passwordFile: string;
  /** Only on the start that created the demo team: later starts print where it is, not the password. */
  password?: string;
}

/**
 * On a fresh data dir: a ready team "Demo Agency" owned by demo@photorelay.local. The generated
 * password is kept in DATA_DIR/demo-login.txt; it is printed once, when it is made, so it does
 * not land in every start's log.
 */
export async function seedDemo(db: Db, dataDir: string): Promise<DemoLogin | null> {
  const file = path.join(dataDir, 'demo-login.txt');
  const existing = await accountQueries.findUserByEmail(db, demoEmail);
  if (existing) return fs.existsSync(file) ? { email: demoEmail, passwordFile: file } : null;
  const password = randomToken(9);
  const passwordHash = await hashPassword(password);
  await db.transaction().execute(async (trx) => {
    const userId = await accountQueries.insertUser(trx, {
      email: demoEmail,
      passwordHash,
      firstName: 'Demo',
      lastName: 'Owner',
      language: 'en',
      timezone: 'Europe/Berlin',
      verified: true,
    });
    const team = await createTeamOwnedBy(trx, 'Demo Agency', userId);
    await accountQueries.setCurrentTeam(trx, userId, team.teamId);
  });
  while (await provisionNextTeam(db)) {}
  fs.writeFileSync(file, `${password}\n`, { mode: 0o600 });
  return { email: demoEmail, passwordFile: file, password };
}
