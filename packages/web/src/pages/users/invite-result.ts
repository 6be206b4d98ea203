// Spec §4 'Invite result' and §8: what the 'Add User' dialog tells about the answer.
export type InviteMessage = {
  key: 'snackbars.alreadyInTeam' | 'snackbars.added' | 'snackbars.invitationSent' | 'snackbars.failed';
  variant: 'info' | 'success' | 'error';
};

/** ALREADY_OK, ADDED_OK and INVITATION_PENDING each have their text; anything else 'Something went wrong.'. */
export function inviteResultMessage(result: unknown): InviteMessage {
  switch (result) {
    case 'ALREADY_OK':
      return { key: 'snackbars.alreadyInTeam', variant: 'info' };
    case 'ADDED_OK':
      return { key: 'snackbars.added', variant: 'success' };
    case 'INVITATION_PENDING':
      return { key: 'snackbars.invitationSent', variant: 'success' };
    default:
      return { key: 'snackbars.failed', variant: 'error' };
  }
}
