import * as c from '@photorelay/contract/folders';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { handle } from '../../http/route.ts';
import * as folders from './service.ts';

const ok = { result: 'OK' as const };
const permissionList = (body: z.infer<typeof c.putPermissionBody>) =>
  Array.isArray(body) ? body : body.permissions;

/** Spec §7 "Folders and tree"; the routes are declared in the contract. */
export function folderRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const { db } = ctx;
  return async (app) => {
    handle(app, c.getFolderTree, async (request) => ({
      folders: await folders.folderTree(db, request.member),
    }));

    handle(app, c.getFolder, async (request) => ({
      folder: [await folders.folderNode(db, request.member, request.params.id)],
    }));

    handle(app, c.createFolder, async (request) => ({
      result: 'OK' as const,
      folderId: await folders.createFolder(db, request.member, request.body),
    }));

    handle(app, c.renameFolder, async (request) => {
      await folders.renameFolder(
        db,
        request.member,
        request.params.id,
        (request.body.newName ?? request.body.name) as string,
      );
      return ok;
    });

    handle(app, c.deleteFolder, async (request) => {
      await folders.deleteFolder(db, request.member, request.params.id);
      return ok;
    });

    handle(app, c.setUserPermission, async (request) => {
      const { id: folderId, dbuserid } = request.params;
      await folders.setUserPermission(db, request.member, folderId, dbuserid, permissionList(request.body));
      return ok;
    });

    handle(app, c.setGroupPermission, async (request) => {
      const { id: folderId, dbgroupid } = request.params;
      await folders.setGroupPermission(db, request.member, folderId, dbgroupid, permissionList(request.body));
      return ok;
    });

    const moves = {
      folder: folders.moveFolder,
      project: folders.moveProject,
      ftpserver: folders.moveFtpServer,
    } as const;
    for (const kind of Object.keys(moves) as c.MovableKind[]) {
      handle(app, c.moveRoutes[kind], async (request) => {
        await moves[kind](db, request.member, request.params.folderId, request.params.id);
        return ok;
      });
    }
  };
}
