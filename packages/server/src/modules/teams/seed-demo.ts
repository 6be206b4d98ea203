import fs from 'node:fs';
import path from 'node:path';
import { hashPassword, randomToken } from '../../crypto/tokens.ts';
import type { Db } from '../../db/kysely.ts';
import * as accountQueries from '../account/queries.ts';
import { provisionNextTeam } from './provisioning.ts';
import { createTeamOwnedBy } from './service.ts';

export const demoEmail = 'demo@photorelay.local';

/**
 * On a fresh data dir: a ready team "Demo Agency" owned by demo@photorelay.local. The generated
 * password is kept in DATA_DIR/demo-login.txt so every start can print how to log in.
 */
export async function seedDemo(db: Db, dataDir: string): Promise<{ email: string; password: string } | null> {
  const file = path.join(dataDir, 'demo-login.txt');
  const existing = await accountQueries.findUserByEmail(db, demoEmail);
  if (existing) {
    const password = fs.existsSync(file) ? fs.readFileSync(file, 'utf8').trim() : null;
    return password ? { email: demoEmail, password } : null;
  }
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
  return { email: demoEmail, password };
}
