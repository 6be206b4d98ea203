import { idParam, okResult } from '@photorelay/contract/common';
import * as c from '@photorelay/contract/folders';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { forMembers, forNode } from '../../http/access.ts';
import * as folders from './service.ts';

const id = idParam;
const teamUuid = z.string();
const ok = { result: 'OK' as const };
const folderParam = { kind: 'folder', param: 'id' } as const;
const permissionList = (body: z.infer<typeof c.putPermissionBody>) =>
  Array.isArray(body) ? body : body.permissions;

/** Spec §7 "Folders and tree". */
export function folderRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const { db } = ctx;
  return async (app) => {
    app.get(
      '/folders',
      { config: forMembers, schema: { response: { 200: c.getFoldersResponse } } },
      async (request) => ({
        folders: await folders.folderTree(db, request.member),
      }),
    );

    app.get(
      '/folder/:id',
      {
        config: forNode('read', folderParam),
        schema: { params: z.object({ teamUuid, id }), response: { 200: c.getFolderResponse } },
      },
      async (request) => ({ folder: [await folders.folderNode(db, request.member, request.params.id)] }),
    );

    app.post(
      '/folder',
      {
        config: forNode('write', { kind: 'folder', body: 'parentFolderId' }),
        schema: { body: c.postFolderBody, response: { 200: c.postFolderResponse } },
      },
      async (request) => ({
        result: 'OK' as const,
        folderId: await folders.createFolder(db, request.member, request.body),
      }),
    );

    app.put(
      '/folder/:id',
      {
        config: forNode('write', folderParam),
        schema: { params: z.object({ teamUuid, id }), body: c.putFolderBody, response: { 200: okResult } },
      },
      async (request) => {
        await folders.renameFolder(
          db,
          request.member,
          request.params.id,
          (request.body.newName ?? request.body.name) as string,
        );
        return ok;
      },
    );

    app.delete(
      '/folder/:id',
      {
        config: forNode('write', folderParam),
        schema: { params: z.object({ teamUuid, id }), response: { 200: okResult } },
      },
      async (request) => {
        await folders.deleteFolder(db, request.member, request.params.id);
        return ok;
      },
    );

    app.put(
      '/folder/:id/permission/user/:dbuserid',
      {
        config: forNode('folder_admin', folderParam),
        schema: {
          params: z.object({ teamUuid, id, dbuserid: id }),
          body: c.putPermissionBody,
          response: { 200: okResult },
        },
      },
      async (request) => {
        const { id: folderId, dbuserid } = request.params;
        await folders.setUserPermission(db, request.member, folderId, dbuserid, permissionList(request.body));
        return ok;
      },
    );

    app.put(
      '/folder/:id/permission/group/:dbgroupid',
      {
        config: forNode('folder_admin', folderParam),
        schema: {
          params: z.object({ teamUuid, id, dbgroupid: id }),
          body: c.putPermissionBody,
          response: { 200: okResult },
        },
      },
      async (request) => {
        const { id: folderId, dbgroupid } = request.params;
        await folders.setGroupPermission(
          db,
          request.member,
          folderId,
          dbgroupid,
          permissionList(request.body),
        );
        return ok;
      },
    );

    const moves = {
      folder: folders.moveFolder,
      project: folders.moveProject,
      ftpserver: folders.moveFtpServer,
    } as const;
    for (const [kind, move] of Object.entries(moves)) {
      app.post(
        `/folder/:folderId/${kind}/:id`,
        {
          config: forNode('write', { kind: 'folder', param: 'folderId' }),
          schema: { params: z.object({ teamUuid, folderId: id, id }), response: { 200: okResult } },
        },
        async (request) => {
          await move(db, request.member, request.params.folderId, request.params.id);
          return ok;
        },
      );
    }
  };
}
