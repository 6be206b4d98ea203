// Spec §5 'Photographer invitation page': userid and ciid required ('invalid parameters'); userid
// must be the signed-in user ('invalid user id').
export type InvitationParams = { userId: number; entryId: number; token: string; selector: string };

export type ParamsCheck =
  | { ok: true; params: InvitationParams }
  | { ok: false; problem: 'invalidParameters' | 'invalidUserId' };

const positiveInt = (text: string | null) =>
  text && /^\d{1,10}$/.test(text) && Number(text) > 0 ? Number(text) : null;

export function checkInvitationParams(search: URLSearchParams, currentUserId: number): ParamsCheck {
  const userId = positiveInt(search.get('userid'));
  const entryId = positiveInt(search.get('ciid'));
  const token = search.get('token') ?? '';
  const selector = search.get('selector') ?? '';
  if (userId === null || entryId === null || !token || !selector)
    return { ok: false, problem: 'invalidParameters' };
  if (userId !== currentUserId) return { ok: false, problem: 'invalidUserId' };
  return { ok: true, params: { userId, entryId, token, selector } };
}
