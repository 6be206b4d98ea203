import type { Logger } from 'pino';
import type { IngestAccount, IngestBackend, IngestSession } from './backend.ts';
import {
  type LoginAttempt,
  LoginBlockedError,
  type LoginOutcome,
  type LoginThrottle,
} from './login-throttle.ts';

/** Why a login was refused: the text for the client; the connection log has its own reason. */
export class LoginRefusedError extends Error {}

/**
 * One FTP or SFTP password check: through the throttle (counted before the check), the backend,
 * and the connection's log (a camera with a wrong password shows up in its project's log).
 * Resolves with the account or throws LoginRefusedError; other errors mean "try again later".
 */
export async function checkIngestLogin(
  deps: { throttle: LoginThrottle; backend: IngestBackend; log: Logger },
  session: IngestSession,
  address: string,
  username: string,
  password: string,
): Promise<IngestAccount> {
  let attempt: LoginAttempt;
  try {
    attempt = await deps.throttle.begin(address, username);
  } catch (err) {
    if (!(err instanceof LoginBlockedError)) throw err;
    session.login({ username, account: null, reason: 'blocked' });
    throw new LoginRefusedError(err.message);
  }
  let account: IngestAccount | null;
  try {
    account = await deps.backend.authenticate(username, password, address);
  } catch (err) {
    await attempt.settle('error').catch(() => {});
    throw err;
  }
  let outcome: LoginOutcome = 'ok';
  if (!account)
    outcome =
      (await deps.backend.accountExists?.(username).catch(() => true)) === false ? 'unknown' : 'failed';
  await attempt.settle(outcome).catch((err: unknown) => {
    deps.log.warn({ err }, 'login attempt not recorded');
  });
  session.login({ username, account, reason: account ? undefined : 'wrong user name or password' });
  if (!account) throw new LoginRefusedError('Login incorrect');
  return account;
}
