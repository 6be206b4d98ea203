// Helpers of the script integration tests (not imported by the server).
import assert from 'node:assert/strict';
import type { TestClient } from './client.ts';
import { runCommand } from './commands.ts';
import { type makeTeam, rootFolder } from './factories.ts';
import type { TestServer } from './server.ts';

export type Team = Awaited<ReturnType<typeof makeTeam>>;
export interface Job {
  id: number;
  filename: string;
  state: string;
  errortext: string | null;
  ftpservername: string | null;
  destprojectname: string | null;
  canRetry: boolean;
  detail: { processing: { script?: { log: string[] } } | null };
}

export async function setupProject(server: TestServer, team: Team, name: string, parentFolderId?: number) {
  const client = team.owner.client;
  const parent = parentFolderId ?? (await rootFolder(server, team, 'projects')).id;
  const created = await client.post<{ projectId: number }>(`/api/${team.teamUuid}/project`, {
    name,
    parentFolderId: parent,
  });
  assert.equal(created.status, 200, JSON.stringify(created.body));
  const project = await client.get<{
    project: { ftpAccounts: Array<{ username: string; password: string }>; ingest: { ftpPort: number } };
  }>(`/api/${team.teamUuid}/project/${created.body.projectId}`);
  return {
    id: created.body.projectId,
    account: project.body.project.ftpAccounts[0],
    ftpPort: project.body.project.ingest.ftpPort,
  };
}

export const storeScript = (
  client: TestClient,
  team: Team,
  owner: { dbprojectid: number } | { dbfolderid: number },
  source: string,
  filename = 'test.script',
) => runCommand<string>(client, team.teamUuid, 'storescriptfile', { filename, content: source, ...owner });

export async function jobsOf(client: TestClient, team: Team, projectId: number) {
  const res = await client.post<{ jobs: Job[] }>(`/api/${team.teamUuid}/jobs/100/0`, {
    projectid: projectId,
  });
  assert.equal(res.status, 200);
  return res.body.jobs;
}

export async function waitForJobs(
  client: TestClient,
  team: Team,
  projectId: number,
  done: (jobs: Job[]) => boolean,
  timeoutMs = 20_000,
) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const jobs = await jobsOf(client, team, projectId);
    if (done(jobs)) return jobs;
    if (Date.now() > deadline) throw new Error(`jobs did not settle: ${JSON.stringify(jobs)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The processed file of a project's newest upload, as its destinations get it (once processing ended). */
export async function processedUpload(server: TestServer, projectId: number) {
  const deadline = Date.now() + 20_000;
  const newest = () =>
    server.running.ctx.db
      .selectFrom('uploads')
      .select(['path', 'processed_blob_key', 'processed_filename', 'state'])
      .where('project_id', '=', projectId)
      .orderBy('id', 'desc')
      .executeTakeFirst();
  let row = await newest();
  while (!row || row.state === 'received' || row.state === 'processing') {
    if (Date.now() > deadline) throw new Error(`upload of project ${projectId} not processed`);
    await new Promise((r) => setTimeout(r, 100));
    row = await newest();
  }
  const chunks: Buffer[] = [];
  if (row.processed_blob_key)
    for await (const chunk of server.running.ctx.blobs.read(row.processed_blob_key))
      chunks.push(chunk as Buffer);
  return { ...row, bytes: Buffer.concat(chunks) };
}
