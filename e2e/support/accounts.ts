// Creates verified accounts through the real API (for tests that are not about signing up).
import type { APIRequestContext, Page } from 'playwright-core';
import type { TestServer } from './server.ts';

export type Account = {
  email: string;
  password: string;
  firstName: string;
  lastName: string;
  company: string;
};

let counter = 0;
export function newAccount(prefix: string, company = `${prefix} Photo Agency`): Account {
  counter += 1;
  return {
    email: `${prefix.toLowerCase().replace(/\W+/g, '')}.${Date.now()}.${counter}@example.com`,
    password: 'shutter-speed-1',
    firstName: prefix,
    lastName: 'Tester',
    company,
  };
}

/** Same-origin JSON headers the server requires for writes. */
export const jsonHeaders = (server: TestServer) => ({
  'Content-Type': 'application/json',
  Origin: server.url,
});

export async function registerVerified(server: TestServer, request: APIRequestContext, account: Account) {
  const register = await request.post(`${server.url}/api/user/register`, {
    headers: jsonHeaders(server),
    data: {
      email: account.email,
      firstName: account.firstName,
      lastName: account.lastName,
      password: account.password,
      companyName: account.company,
      timezone: 'Europe/Berlin',
      language: 'en',
    },
  });
  if (!register.ok()) throw new Error(`register failed: ${register.status()} ${await register.text()}`);
  const link = new URL(await server.linkFromMail(account.email, /verify|bestätigen/i));
  const verify = await request.post(`${server.url}/api/user/verify`, {
    headers: jsonHeaders(server),
    data: { token: link.searchParams.get('token'), selector: link.searchParams.get('selector') },
  });
  if (!verify.ok()) throw new Error(`verify failed: ${verify.status()} ${await verify.text()}`);
}

/** Signs in through the UI and waits until the dashboard shows (team ready). */
export async function signIn(page: Page, account: Account) {
  await page.goto('/login');
  await page.getByTestId('login-email').fill(account.email);
  await page.getByTestId('login-password').fill(account.password);
  await page.getByTestId('login-submit').click();
  await page
    .getByTestId('job-summary-table')
    .or(page.getByTestId('job-summary-empty'))
    .waitFor({ timeout: 30_000 });
}

/** The current team's uuid as the app sees it. */
export async function currentTeamOf(page: Page): Promise<string> {
  const info = await page.evaluate(async () => (await fetch('/api/user/info')).json());
  const teams = (info.member_of ?? []) as { teamid: string }[];
  return (teams.find((team) => team.teamid === info.currentTeam) ?? teams[0]).teamid;
}

/**
 * Adds a verified account to the signed-in owner's team the way a person does: the owner invites
 * the address, the account opens the mailed link (an existing account joins only by accepting).
 */
export async function addToTeam(
  server: TestServer,
  request: APIRequestContext,
  api: { post: <T = Record<string, unknown>>(path: string, data?: unknown) => Promise<T> },
  email: string,
  language: 'en' | 'de' = 'en',
) {
  const answer = await api.post<{ result: string }>('user', { email, language });
  if (answer.result !== 'INVITATION_PENDING') throw new Error(`invite answered ${answer.result}`);
  const link = new URL(await server.linkFromMail(email, /invited to join|Einladung in das Team/));
  const accept = await request.post(`${server.url}/api/user/acceptInvitation`, {
    headers: jsonHeaders(server),
    data: { token: link.searchParams.get('token') },
  });
  if (!accept.ok())
    throw new Error(`accepting the invitation failed: ${accept.status()} ${await accept.text()}`);
}
