// Script calls of spec §7: GET/DELETE team/project/{id}/script and team/folder/{id}/script, and
// the command storescriptfile (checked by the server before it is stored).
import {
  type Script,
  type ScriptOwnerKind,
  scriptRoutesOf,
  storeScriptFile,
} from '@photorelay/contract/scripts';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { callRoute } from './call.ts';
import { teamScope } from './client.ts';
import { useCommand } from './commands.ts';
import { handlesAllErrors } from './query-client.ts';

export type { Script };
export type ScriptOwner = { kind: ScriptOwnerKind; id: number };

export const scriptKeys = {
  owner: (teamUuid: string, owner: ScriptOwner) =>
    [...teamScope(teamUuid), 'script', owner.kind, owner.id] as const,
};

export const fetchScript = (teamUuid: string, owner: ScriptOwner, signal?: AbortSignal) =>
  callRoute(scriptRoutesOf[owner.kind].get, { teamUuid, params: { id: owner.id }, signal });

export const scriptQuery = (teamUuid: string, owner: ScriptOwner) =>
  queryOptions({
    queryKey: scriptKeys.owner(teamUuid, owner),
    queryFn: ({ signal }) => fetchScript(teamUuid, owner, signal),
  });

export const useScript = (teamUuid: string, owner: ScriptOwner) => useQuery(scriptQuery(teamUuid, owner));

export function useDeleteScript(teamUuid: string, owner: ScriptOwner) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => callRoute(scriptRoutesOf[owner.kind].remove, { teamUuid, params: { id: owner.id } }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: scriptKeys.owner(teamUuid, owner) }),
  });
}

/** storescriptfile; a syntax error comes back as 'line:column<||||>message', shown by the panel. */
export function useStoreScriptFile(teamUuid: string, owner: ScriptOwner) {
  const queryClient = useQueryClient();
  const command = useCommand(teamUuid, storeScriptFile, handlesAllErrors);
  return {
    ...command,
    store: async (filename: string, content: string) => {
      const detail = await command.mutateAsync({
        filename,
        content,
        ...(owner.kind === 'project' ? { dbprojectid: owner.id } : { dbfolderid: owner.id }),
      });
      await queryClient.invalidateQueries({ queryKey: scriptKeys.owner(teamUuid, owner) });
      return detail;
    },
  };
}
