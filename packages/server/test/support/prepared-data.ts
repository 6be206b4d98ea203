import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { hashPassword } from '../../src/crypto/tokens.ts';
import { migrate, openDatabase } from '../../src/db/kysely.ts';
import * as accountQueries from '../../src/modules/account/queries.ts';
import { provisionNextTeam } from '../../src/modules/teams/provisioning.ts';
import { createTeamOwnedBy } from '../../src/modules/teams/service.ts';
import { testBackend } from './database.ts';

// A DATA_DIR with a migrated database and one ready team, made once and copied per server
// process (serverProcess in process.ts runs on it).

export interface SeededTeam {
  teamId: number;
  teamUuid: string;
  email: string;
  password: string;
  projectsRootId: number;
  ftpserversRootId: number;
}

/** A DATA_DIR with a migrated database holding one ready team and its owner. */
export interface PreparedData {
  dataDir: string;
  /** PostgreSQL only; PGlite lives in DATA_DIR/db. */
  databaseUrl?: string;
  team: SeededTeam;
  /** Removes the folder and drops the PostgreSQL database. */
  remove(): Promise<void>;
}

function postgresAdminUrl(): string | undefined {
  if (testBackend() !== 'postgres') return undefined;
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('PHOTORELAY_TEST_DB=postgres needs TEST_DATABASE_URL');
  return url;
}

async function adminQuery(adminUrl: string, text: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

/**
 * A new database on the TEST_DATABASE_URL server, optionally a copy of `template`. Falls back
 * to TEST_DATABASE_URL itself (with a warning) where the role may not create databases.
 */
async function newPostgresDatabase(
  adminUrl: string,
  template?: string,
): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `photorelay_proc_${process.pid}_${randomUUID().slice(0, 8)}`;
  try {
    await adminQuery(adminUrl, `create database ${name}${template ? ` template ${template}` : ''}`);
  } catch (err) {
    console.warn(
      `could not create a database for the server process (${(err as Error).message}); using TEST_DATABASE_URL`,
    );
    return { url: adminUrl, drop: async () => {} };
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () => adminQuery(adminUrl, `drop database if exists ${name} with (force)`),
  };
}

/**
 * An empty database of its own for a server process: on the PostgreSQL pass a new database on
 * TEST_DATABASE_URL's server (`url`), on the PGlite pass nothing (the process makes PGlite
 * under its DATA_DIR).
 */
export async function emptyProcessDatabase(): Promise<{ url?: string; drop(): Promise<void> }> {
  const adminUrl = postgresAdminUrl();
  return adminUrl ? newPostgresDatabase(adminUrl) : { drop: async () => {} };
}

/**
 * Creates DATA_DIR and the database, migrates it and seeds one ready team (owner logs in with
 * `team.email`/`team.password`). `options.postgresUrl`: on that PostgreSQL server (a test's own
 * cluster) whatever the test backend.
 */
export async function prepareData(options: { postgresUrl?: string } = {}): Promise<PreparedData> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'photorelay-proc-'));
  const adminUrl = options.postgresUrl ?? postgresAdminUrl();
  const pgDb = adminUrl ? await newPostgresDatabase(adminUrl) : undefined;
  const db = await openDatabase({ databaseUrl: pgDb?.url, dataDir });
  let team: SeededTeam;
  try {
    await migrate(db);
    const email = `owner-${randomUUID().slice(0, 8)}@example.com`;
    const password = 'correct horse battery';
    const userId = await accountQueries.insertUser(db, {
      email,
      passwordHash: await hashPassword(password),
      firstName: 'Owner',
      lastName: 'User',
      language: 'en',
      timezone: 'Europe/Berlin',
      verified: true,
    });
    const created = await createTeamOwnedBy(db, `Agency ${randomUUID().slice(0, 6)}`, userId);
    await accountQueries.setCurrentTeam(db, userId, created.teamId);
    while (await provisionNextTeam(db)) {}
    const roots = await db
      .selectFrom('folders')
      .select(['id', 'type'])
      .where('team_id', '=', created.teamId)
      .where('parent_id', 'is', null)
      .execute();
    const root = (type: string) => {
      const found = roots.find((r) => r.type === type);
      if (!found) throw new Error(`team has no ${type} root folder`);
      return found.id;
    };
    team = {
      teamId: created.teamId,
      teamUuid: created.teamUuid,
      email,
      password,
      projectsRootId: root('projects'),
      ftpserversRootId: root('ftpservers'),
    };
  } finally {
    await db.destroy();
  }
  return {
    dataDir,
    databaseUrl: pgDb?.url,
    team,
    async remove() {
      fs.rmSync(dataDir, { recursive: true, force: true });
      await pgDb?.drop();
    },
  };
}

/**
 * A second, independent copy of prepared data (same team, same ids): copying the PGlite folder
 * or the PostgreSQL database is much faster than making a new one. `source` must not be in use.
 */
export async function copyData(source: PreparedData): Promise<PreparedData> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'photorelay-proc-'));
  fs.cpSync(source.dataDir, dataDir, { recursive: true });
  const adminUrl = postgresAdminUrl();
  let pgDb: { url: string; drop(): Promise<void> } | undefined;
  if (adminUrl && source.databaseUrl && source.databaseUrl !== adminUrl) {
    pgDb = await newPostgresDatabase(adminUrl, new URL(source.databaseUrl).pathname.slice(1));
  } else if (adminUrl) {
    pgDb = { url: adminUrl, drop: async () => {} };
  }
  return {
    dataDir,
    databaseUrl: pgDb?.url,
    team: source.team,
    async remove() {
      fs.rmSync(dataDir, { recursive: true, force: true });
      await pgDb?.drop();
    },
  };
}
