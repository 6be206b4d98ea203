// The signed-in user's team API from a test (same cookies as the page), for setting up data that
// a journey is not about, and small helpers for the drawer tree.
import type { Locator, Page } from 'playwright-core';
import { currentTeamOf, jsonHeaders } from './accounts.ts';
import type { TestServer } from './server.ts';

export type TeamApi = {
  team: string;
  get: <T = Record<string, unknown>>(path: string) => Promise<T>;
  post: <T = Record<string, unknown>>(path: string, data?: unknown) => Promise<T>;
  put: <T = Record<string, unknown>>(path: string, data?: unknown) => Promise<T>;
};

export async function teamApi(page: Page, server: TestServer): Promise<TeamApi> {
  const team = await currentTeamOf(page);
  const url = (path: string) => `${server.url}/api/${team}/${path}`;
  const check = async <T>(
    response: Awaited<ReturnType<Page['request']['get']>>,
    what: string,
  ): Promise<T> => {
    if (!response.ok()) throw new Error(`${what} failed: ${response.status()} ${await response.text()}`);
    return (await response.json()) as T;
  };
  return {
    team,
    get: async (path) => check(await page.request.get(url(path)), `GET ${path}`),
    post: async (path, data = {}) =>
      check(await page.request.post(url(path), { headers: jsonHeaders(server), data }), `POST ${path}`),
    put: async (path, data = {}) =>
      check(await page.request.put(url(path), { headers: jsonHeaders(server), data }), `PUT ${path}`),
  };
}

type Node = { key: string; id: number; name: string; type: string; isRoot: boolean; children: Node[] };

/** The id of the root folder of a kind ('projects', 'ftpservers', …). */
export async function rootFolderId(api: TeamApi, type: string): Promise<number> {
  const { folders } = await api.get<{ folders: Node[] }>('folders');
  const root = folders.find((node) => node.type === type && node.isRoot);
  if (!root) throw new Error(`no ${type} root`);
  return root.id;
}

/** A new project in `parentFolderId` (e.g. the projects root) and its FTP account. */
export async function newProject(
  api: TeamApi,
  name: string,
  parentFolderId: number,
): Promise<{ id: number; account: { username: string; password: string } }> {
  const { projectId } = await api.post<{ projectId: number }>('project', { name, parentFolderId });
  const { project } = await api.get<{
    project: { ftpAccounts: Array<{ username: string; password: string }> };
  }>(`project/${projectId}`);
  const account = project.ftpAccounts[0];
  if (!account) throw new Error(`project ${name} has no FTP account`);
  return { id: projectId, account };
}

/** A node of the drawer tree by its visible label (the drawer on wide screens). */
export const treeItem = (page: Page, label: string): Locator =>
  page.getByTestId('app-drawer').getByTestId('folder-tree').getByRole('button', { name: label, exact: true });

/** Right-clicks a tree node and waits for its context menu. */
export async function openTreeMenu(page: Page, label: string): Promise<Locator> {
  await treeItem(page, label).click({ button: 'right' });
  const menu = page.getByTestId('tree-menu');
  await menu.getByRole('menu').waitFor();
  return menu;
}

/** Entries of the open context menu, by test id suffix (newProject, rename, place, …). */
export async function menuEntries(page: Page): Promise<string[]> {
  const ids = await page
    .getByTestId('tree-menu')
    .locator('[data-testid^="tree-menu-"]')
    .evaluateAll((items) =>
      items.map((item) => item.getAttribute('data-testid')?.replace('tree-menu-', '') ?? ''),
    );
  return ids;
}

/** Closes an open menu or dialog with Escape. */
export const pressEscape = (page: Page) => page.keyboard.press('Escape');

/**
 * An FTP server in the FTP servers root (or `parentFolderId`) added to `projectId` as a
 * destination, e.g. another project's ingest account or a port where nothing listens.
 */
export async function addFtpDestination(
  api: TeamApi,
  projectId: number,
  server: { name: string; port: number; username: string; password: string },
  parentFolderId?: number,
): Promise<number> {
  const { ftpserverid } = await api.post<{ ftpserverid: number }>('ftpserver', {
    ...server,
    host: '127.0.0.1',
    protocol: 'ftp',
    parentFolderId: parentFolderId ?? (await rootFolderId(api, 'ftpservers')),
  });
  await api.post(`project/${projectId}/ftpserver/${ftpserverid}`);
  return ftpserverid;
}

/** A new event in the team's default calendar (the body as the event dialog sends it); answers its id. */
export async function newTeamEvent(api: TeamApi, event: Record<string, unknown>): Promise<number> {
  const { calendars } = await api.get<{ calendars: { dbcalendarid: number; type: string }[] }>('calendars');
  const calendar = calendars.find((c) => c.type === 'default');
  if (!calendar) throw new Error('the team has no default calendar');
  const { calendarentryid } = await api.post<{ calendarentryid: number }>(
    `calendar/${calendar.dbcalendarid}/entry`,
    event,
  );
  return calendarentryid;
}
