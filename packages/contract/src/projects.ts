import { z } from 'zod';
import { decimalParam, idParam, okResult } from './common.ts';
import { limits } from './limits.ts';
import { forNode, teamRoute } from './route.ts';

export const projectName = z.string().trim().min(1).max(limits.projectName);
export const destinationPath = z.string().trim().max(limits.ftpServerField);

export const projectFtpServer = z.object({
  id: z.number(),
  dbftpserverid: z.number(),
  name: z.string(),
  protocol: z.string(),
  host: z.string(),
  /** The path used: the project's override, else the server's default. */
  path: z.string(),
  defaultpath: z.string(),
  overridepath: z.string().nullable(),
  enabled: z.boolean(),
  /** False when the member may read the project but not the server (its host stays hidden). */
  readable: z.boolean(),
});
export const namedRef = z.object({ id: z.number(), name: z.string() });
export const destinationProject = namedRef.extend({ enabled: z.boolean(), readable: z.boolean() });

export const project = z.object({
  projectid: z.number(),
  id: z.number(),
  name: z.string(),
  parentFolderId: z.number(),
  canWrite: z.boolean(),
  fileincount: z.number(),
  fileoutcount: z.number(),
  bytesreceived: z.number(),
  bytessent: z.number(),
  ftpAccounts: z.array(z.object({ username: z.string(), password: z.string() })),
  ingest: z.object({
    host: z.string(),
    ftpPort: z.number(),
    ftpsImplicitPort: z.number().nullable(),
    sftpPort: z.number(),
  }),
  ftpServers: z.array(projectFtpServer),
  otherFtpServers: z.array(namedRef),
  destinationProjects: z.array(destinationProject),
  otherProjects: z.array(namedRef),
});
export type Project = z.infer<typeof project>;

export const getProjectResponse = z.object({ project });
export const postProjectBody = z.object({ name: projectName, parentFolderId: z.number().int().positive() });
export const postProjectResponse = z.object({ result: z.literal('OK'), projectId: z.number() });
export const putProjectBody = z.object({ name: projectName }).passthrough();
export const putProjectFtpServerBody = z
  .object({ path: destinationPath.optional(), enabled: z.boolean().optional() })
  .refine((b) => b.path !== undefined || b.enabled !== undefined, { message: 'path or enabled is required' });
export const putDestinationProjectBody = z.object({ enabled: z.boolean() });

export const hourlyStat = z.object({
  hour: z.string(),
  filesIn: z.number(),
  bytesIn: z.number(),
  filesOut: z.number(),
  bytesOut: z.number(),
});
/** The same counts per minute (issue 16: the chart shows the last hour when all traffic is in it). */
export const minuteStat = hourlyStat.omit({ hour: true }).extend({ minute: z.string() });
export const getProjectStatsResponse = z.object({
  hours: z.array(hourlyStat),
  /** The last 60 minutes, the current one included; minutes without traffic are left out. */
  minutes: z.array(minuteStat),
});

export const connectionLogEntry = z.object({ at: z.string(), kind: z.string(), text: z.string() });
export const connectionSession = z.object({
  id: z.number(),
  startedAt: z.string(),
  endedAt: z.string().nullable(),
  remoteAddress: z.string(),
  protocol: z.string(),
  tls: z.boolean(),
  username: z.string().nullable(),
  loginResult: z.string().nullable(),
  entries: z.array(connectionLogEntry),
});
export const getConnectionLogResponse = z.object({ sessions: z.array(connectionSession) });

// ---- routes (spec §7 "Projects"; jobs are in the jobs area) ----

const projectNode = (needs: 'read' | 'write') => forNode(needs, { kind: 'project', param: 'id' });
const projectParams = z.object({ id: idParam });
const targetParams = z.object({ id: idParam, targetId: idParam });

export const createProject = teamRoute({
  method: 'POST',
  path: '/project',
  body: postProjectBody,
  response: postProjectResponse,
  errors: ['NameTaken'],
  access: forNode('write', { kind: 'folder', body: 'parentFolderId' }),
});

export const getProject = teamRoute({
  method: 'GET',
  path: '/project/:id',
  params: projectParams,
  response: getProjectResponse,
  access: projectNode('read'),
});

/** PUT with the project (or just a name) renames it; everything else has its own call. */
export const renameProject = teamRoute({
  method: 'PUT',
  path: '/project/:id',
  params: projectParams,
  body: putProjectBody,
  response: okResult,
  errors: ['NameTaken'],
  access: projectNode('write'),
});

export const deleteProject = teamRoute({
  method: 'DELETE',
  path: '/project/:id',
  params: projectParams,
  response: okResult,
  access: projectNode('write'),
});

/** Adding, changing and removing a destination: an FTP server or another project. */
const destinationRoute = <
  const M extends 'POST' | 'DELETE',
  const K extends 'ftpserver' | 'destinationproject',
>(
  method: M,
  kind: K,
) =>
  teamRoute({
    method,
    path: `/project/:id/${kind}/:targetId`,
    params: targetParams,
    response: okResult,
    access: projectNode('write'),
  });

export const destinationRoutes = {
  ftpserver: {
    add: destinationRoute('POST', 'ftpserver'),
    remove: destinationRoute('DELETE', 'ftpserver'),
    update: teamRoute({
      method: 'PUT',
      path: '/project/:id/ftpserver/:targetId',
      params: targetParams,
      body: putProjectFtpServerBody,
      response: okResult,
      access: projectNode('write'),
    }),
  },
  destinationproject: {
    add: destinationRoute('POST', 'destinationproject'),
    remove: destinationRoute('DELETE', 'destinationproject'),
    update: teamRoute({
      method: 'PUT',
      path: '/project/:id/destinationproject/:targetId',
      params: targetParams,
      body: putDestinationProjectBody,
      response: okResult,
      access: projectNode('write'),
    }),
  },
};
export type DestinationKind = keyof typeof destinationRoutes;

export const getProjectStats = teamRoute({
  method: 'GET',
  path: '/project/:id/stats',
  params: projectParams,
  query: z.object({ days: decimalParam(1, 30).default(3) }),
  response: getProjectStatsResponse,
  access: projectNode('read'),
});

export const getConnectionLog = teamRoute({
  method: 'GET',
  path: '/project/:id/connectionlog',
  params: projectParams,
  response: getConnectionLogResponse,
  access: projectNode('read'),
});
