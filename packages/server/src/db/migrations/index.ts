import type { Migration } from 'kysely';
import * as accounts from './0001-accounts.ts';
import * as teams from './0002-teams.ts';
import * as commands from './0003-commands.ts';

// Applied in key order; a landed migration is never edited, new ones are appended.
export const migrations: Record<string, Migration> = {
  '0001-accounts': accounts,
  '0002-teams': teams,
  '0003-commands': commands,
};
