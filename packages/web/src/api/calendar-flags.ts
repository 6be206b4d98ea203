// A team's own event flags (issue 27 item 8): the list owners and operators tick on events and
// keep (add, rename, remove). Changing the list reloads the calendar too (flag counts, usage).
import { calendarRoutes as r, type TeamFlag } from '@photorelay/contract/calendar';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { calendarKeys } from './calendar.ts';
import { callRoute } from './call.ts';

export type { TeamFlag };

const flagsKey = (teamUuid: string) => [...calendarKeys.all(teamUuid), 'flags'] as const;

export const useTeamFlags = (teamUuid: string, enabled = true) =>
  useQuery({
    queryKey: flagsKey(teamUuid),
    queryFn: async ({ signal }) => (await callRoute(r.getTeamFlags, { teamUuid, signal })).flags,
    enabled,
  });

export type FlagChange =
  | { kind: 'add'; name: string }
  | { kind: 'rename'; bit: number; name: string }
  | { kind: 'remove'; bit: number; force: boolean };

export function useChangeTeamFlags(teamUuid: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (change: FlagChange) => {
      const answer =
        change.kind === 'add'
          ? await callRoute(r.postTeamFlag, { teamUuid, body: { name: change.name } })
          : change.kind === 'rename'
            ? await callRoute(r.putTeamFlag, {
                teamUuid,
                params: { bit: change.bit },
                body: { name: change.name },
              })
            : await callRoute(r.deleteTeamFlag, {
                teamUuid,
                params: { bit: change.bit },
                query: { force: change.force ? 'true' : undefined },
              });
      return answer.flags;
    },
    onSuccess: (flags) => queryClient.setQueryData(flagsKey(teamUuid), flags),
    onSettled: () => queryClient.invalidateQueries({ queryKey: calendarKeys.all(teamUuid) }),
  });
}
