// Issue 28 items 6 and 7: every screen of the app, at 1366 px and at 390 px, in English and German:
// nothing scrolls sideways and axe (WCAG 2.0/2.1 A and AA) finds nothing serious or critical on
// the whole page (drawer and top bar included). A visitor, the owner of a team with a small day of
// work, a photographer of that team and a member without a team each see their screens; one
// context per language and width keeps the run short.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Cookie, Page } from 'playwright-core';
import { seriousA11yProblems } from './support/a11y.ts';
import { type Account, addToTeam, newAccount, registerVerified, signIn } from './support/accounts.ts';
import { launchBrowser, newContext } from './support/browser.ts';
import { ftpUpload } from './support/ftp-upload.ts';
import { settledScreenshot } from './support/screens.ts';
import { freePort, repoRoot, startServerWithIngest, type TestServer } from './support/server.ts';
import { rootFolderId, teamApi } from './support/team-api.ts';

const image = fs.readFileSync(path.resolve(repoRoot, '../shared/data/images/exiftool-IPTC.jpg'));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const isoDayFromNow = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
/** dd.mm.yyyy, as the calendar API takes dates. */
const dayFromNow = (days: number) => isoDayFromNow(days).split('-').reverse().join('.');

type Who = 'visitor' | 'owner' | 'photographer' | 'teamless';
/** One screen: who sees it, where it is, what shows that it is ready, and what to open on it. */
type Screen = {
  name: string;
  who: Who;
  url: string;
  ready: string;
  open?: (page: Page) => Promise<void>;
  /** Only on the phone (the drawer slides in there; on a desktop it is on every screen). */
  phoneOnly?: boolean;
};

describe('every screen on a desktop and a phone, in English and German', () => {
  let server: TestServer;
  let browser: Browser;
  const cookies: Partial<Record<Who, Cookie[]>> = {};
  const screens: Screen[] = [];

  before(async () => {
    let ftpPort: number;
    ({ server, ftpPort } = await startServerWithIngest());
    browser = await launchBrowser();
    const setup = await newContext(browser, server.url);
    const page = await setup.newPage();
    page.setDefaultTimeout(30_000);
    const owner = newAccount('Emma', 'Emma Every Screen Agentur');
    const photographer: Account = newAccount('Paul', 'Paul Photo');
    const teamless: Account = newAccount('Tom', 'Tom Teamless');
    const invitee: Account = newAccount('Ina', 'Ina Invited');
    for (const account of [owner, photographer, teamless, invitee])
      await registerVerified(server, page.request, account);
    await signIn(page, owner);
    const api = await teamApi(page, server);
    await addToTeam(server, page.request, api, photographer.email);
    // A pending invitation shows in the users table as such.
    await api.post('user', { email: invitee.email, language: 'de' });

    const roots: Record<string, number> = {};
    for (const type of ['projects', 'ftpservers', 'calendars', 'settings'])
      roots[type] = await rootFolderId(api, type);
    const { folderId } = await api.post<{ folderId: number }>('folder', {
      parentFolderId: roots.projects,
      name: 'Bundesliga Saison 2026/27 Auswärtsspiele',
    });
    const { projectId } = await api.post<{ projectId: number }>('project', {
      name: 'Derby day with a rather long project name',
      parentFolderId: folderId,
    });
    const { project } = await api.get<{
      project: { ftpAccounts: Array<{ username: string; password: string }> };
    }>(`project/${projectId}`);
    const account = project.ftpAccounts[0];
    assert.ok(account);
    // One destination where nothing listens: its deliveries wait with an error.
    const { ftpserverid } = await api.post<{ ftpserverid: number }>('ftpserver', {
      name: 'Client FTP with a long name',
      host: '127.0.0.1',
      port: await freePort(),
      protocol: 'ftp',
      username: 'client',
      password: 'client-pw',
      parentFolderId: roots.ftpservers,
    });
    await api.post(`project/${projectId}/ftpserver/${ftpserverid}`);
    for (const filename of ['KICKOFF_0001.JPG', 'GOAL_0002.JPG', 'FANS_IN_THE_NORTH_STAND_0003.JPG'])
      await ftpUpload({ host: '127.0.0.1', port: ftpPort, ...account, filename, content: image });
    for (let i = 0; ; i++) {
      const { count } = await api.post<{ count: number }>('pictures/50/0', { projectid: projectId });
      if (count === 3) break;
      if (i > 300) throw new Error(`only ${count} pictures arrived`);
      await sleep(200);
    }
    const { calendars } = await api.get<{ calendars: { dbcalendarid: number; type: string }[] }>('calendars');
    const calendarId = calendars.find((calendar) => calendar.type === 'default')?.dbcalendarid;
    assert.ok(calendarId);
    const entryIds: number[] = [];
    for (const [i, [team1, team2]] of [
      ['Borussia Mönchengladbach', 'Eintracht Frankfurt'],
      ['Nord', 'Süd'],
    ].entries()) {
      const { calendarentryid } = await api.post<{ calendarentryid: number }>(
        `calendar/${calendarId}/entry`,
        {
          startDate: dayFromNow(2 + i),
          startTime: '15:30',
          category: 'sport',
          subcategory: 'football',
          scene: 'Bundesliga',
          team1,
          team2,
          city: 'Mönchengladbach',
        },
      );
      entryIds.push(calendarentryid);
    }
    const { members } = await api.get<{ members: { dbuserid: number; email: string }[] }>('users');
    const photographerId = members.find((member) => member.email === photographer.email)?.dbuserid;
    assert.ok(photographerId);
    await api.post('calendar/suggestentries', { userIds: [photographerId], entryIds });
    cookies.owner = await setup.cookies();

    for (const [who, person] of [
      ['photographer', photographer],
      ['teamless', teamless],
    ] as const) {
      await setup.clearCookies();
      await signIn(page, person);
      cookies[who] = await setup.cookies();
    }
    await setup.close();

    const month = isoDayFromNow(2).slice(0, 7);
    const clickTestId =
      (testId: string, dialog = '[role="dialog"]') =>
      async (page: Page) => {
        await page.getByTestId(testId).click();
        await page.locator(dialog).last().waitFor();
      };
    screens.push(
      { name: 'landing', who: 'visitor', url: '/', ready: '[data-testid="landing-page"]' },
      { name: 'login', who: 'visitor', url: '/login', ready: '[data-testid="login-email"]' },
      { name: 'signup', who: 'visitor', url: '/signup', ready: 'main h1' },
      { name: 'recover', who: 'visitor', url: '/recover', ready: 'main h1' },
      { name: 'reset', who: 'visitor', url: '/resetPassword?token=nope&selector=nope', ready: 'main h1' },
      {
        name: 'verify',
        who: 'visitor',
        url: '/verify?token=nope&selector=nope',
        ready: '[data-testid="verify-page"]:not([data-state="processing"])',
      },
      {
        name: 'accept-invitation',
        who: 'visitor',
        url: '/acceptInvitation?token=nope',
        ready: '[data-testid="accept-invitation-page"]:not([data-state="processing"])',
      },
      { name: 'imprint', who: 'visitor', url: '/imprint', ready: 'main h1' },
      { name: 'not-found', who: 'visitor', url: '/no/such/page', ready: '[data-testid="not-found"]' },
      { name: 'dashboard', who: 'owner', url: '/', ready: '[data-testid="job-summary-table"]' },
      { name: 'pictures', who: 'owner', url: '/pictures', ready: 'main h1' },
      ...Object.entries(roots).map(([type, id]) => ({
        name: `folder-${type}`,
        who: 'owner' as const,
        url: `/folder?id=${id}`,
        ready: 'main h1',
      })),
      ...['overview', 'destinations', 'metadata', 'script', 'protocol'].map((tab) => ({
        name: `project-${tab}`,
        who: 'owner' as const,
        url: `/project/${tab}?id=${projectId}`,
        ready: tab === 'protocol' ? '[data-testid="picture-row"]' : 'main h1',
      })),
      {
        name: 'project-deliveries',
        who: 'owner',
        url: `/project/protocol?id=${projectId}`,
        ready: '[data-testid="protocol-view-deliveries"]',
        open: async (page) => {
          await page.getByTestId('protocol-view-deliveries').click();
          await page.getByTestId('job-row').first().waitFor();
        },
      },
      { name: 'new-project', who: 'owner', url: `/newproject?parentfolder=${folderId}`, ready: 'main h1' },
      {
        name: 'ftpservers',
        who: 'owner',
        url: '/team/ftpservers',
        ready: '[data-testid="ftpserver-health"]',
      },
      {
        name: 'ftpserver-new',
        who: 'owner',
        url: `/newftpserver?parentfolder=${roots.ftpservers}`,
        ready: 'main h1',
      },
      { name: 'ftpserver', who: 'owner', url: `/ftpserver?id=${ftpserverid}`, ready: 'main h1' },
      { name: 'calendar', who: 'owner', url: '/calendar', ready: `[data-testid="entry-row-${entryIds[0]}"]` },
      {
        name: 'calendar-month',
        who: 'owner',
        url: `/calendar?view=month&month=${month}`,
        ready: '[data-testid="calendar-page"][data-view="month"]',
      },
      {
        name: 'event-dialog',
        who: 'owner',
        url: '/calendar',
        ready: '[data-testid="calendar-new-event"]',
        open: clickTestId('calendar-new-event'),
      },
      {
        name: 'external-calendar-dialog',
        who: 'owner',
        url: '/calendar',
        ready: '[data-testid="calendar-add-external"]',
        open: clickTestId('calendar-add-external'),
      },
      { name: 'users', who: 'owner', url: '/users', ready: '[data-testid="user-invitation-pending"]' },
      {
        name: 'invite-dialog',
        who: 'owner',
        url: '/users',
        ready: '[data-testid="users-add"]',
        open: clickTestId('users-add'),
      },
      {
        name: 'config-files',
        who: 'owner',
        url: '/configfiles',
        ready: '[data-testid="configfile-dropzone"]',
      },
      { name: 'profile', who: 'owner', url: '/userprofile', ready: '[data-testid="profile-form"]' },
      {
        name: 'user-menu',
        who: 'owner',
        url: '/userprofile',
        ready: '[data-testid="profile-form"]',
        open: clickTestId('user-menu-button', '[role="menu"]'),
      },
      {
        name: 'drawer-open',
        who: 'owner',
        url: '/userprofile',
        ready: '[data-testid="profile-form"]',
        phoneOnly: true,
        open: async (page) => {
          await page.locator('header .MuiIconButton-edgeStart').click();
          await page.getByTestId('folder-tree').last().waitFor();
        },
      },
      { name: 'not-found-member', who: 'owner', url: '/no/such/page', ready: '[data-testid="not-found"]' },
      { name: 'photographer-dashboard', who: 'photographer', url: '/', ready: 'main h1' },
      {
        name: 'my-bookings',
        who: 'photographer',
        url: '/calendar',
        ready: `[data-testid="my-booking-${entryIds[0]}"]`,
      },
      { name: 'no-team', who: 'teamless', url: '/noteam', ready: '[data-testid="noteam-page"]' },
    );
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  /** The member without a team: the app is told there is none, as for a removed member. */
  const withoutTeam = async (context: BrowserContext) => {
    await context.route('**/api/user/info', async (route) => {
      const response = await route.fetch();
      const info = await response.json();
      await route.fulfill({ response, json: { ...info, currentTeam: null, member_of: [] } });
    });
  };

  /** What reaches past the right edge: the first few elements, to say what to fix. */
  const reachingPast = (page: Page, width: number) =>
    page.evaluate(
      (edge) =>
        Array.from(document.body.querySelectorAll('*'))
          .filter((element) => element.getBoundingClientRect().right > edge)
          .slice(0, 5)
          .map((element) => `${element.tagName.toLowerCase()}.${String(element.className).split(' ')[0]}`)
          .join(', '),
      width,
    );

  for (const language of ['en', 'de'] as const)
    for (const width of [1366, 390])
      it(`${width} px, ${language}: no sideways scrolling, axe finds nothing serious`, async () => {
        const context = await newContext(browser, server.url, {
          locale: language === 'de' ? 'de-DE' : 'en-US',
          viewport: { width, height: 860 },
        });
        const page = await context.newPage();
        page.setDefaultTimeout(20_000);
        const failures: string[] = [];
        let signedInAs: Who = 'visitor';
        // E2E_SCREENS=name,name runs only those (while fixing one).
        const only = process.env.E2E_SCREENS?.split(',');
        const shown = screens.filter(
          (s) => (!only || only.includes(s.name)) && (!s.phoneOnly || width < 600),
        );
        for (const screen of shown) {
          if (screen.who !== signedInAs) {
            await context.clearCookies();
            await context.unrouteAll();
            const own = cookies[screen.who === 'visitor' ? 'owner' : screen.who];
            if (screen.who !== 'visitor' && own) await context.addCookies(own);
            if (screen.who === 'teamless') await withoutTeam(context);
            signedInAs = screen.who;
          }
          const where = `${screen.name} at ${width} px (${language})`;
          try {
            await page.goto(screen.url);
            await page.locator(screen.ready).first().waitFor();
            // Placeholders and spinners gone: the screen shows its data.
            await page
              .locator('main .MuiSkeleton-root, main [role="progressbar"]')
              .first()
              .waitFor({ state: 'detached', timeout: 5000 })
              .catch(() => {});
            await screen.open?.(page);
          } catch (error) {
            failures.push(`${where}: did not show (${(error as Error).message.split('\n')[0]})`);
            await settledScreenshot(page, `every-${screen.name}-${width}-${language}-missing`);
            continue;
          }
          const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
          // A table in a sideways-scrolling box keeps the page narrow but hides its right-hand
          // columns on a phone: every cell must be in sight there.
          const hiddenCells = await page.evaluate(
            (edge) =>
              Array.from(document.querySelectorAll('main tbody td')).filter((cell) => {
                const box = cell.getBoundingClientRect();
                return box.width > 0 && box.right > edge + 1;
              }).length,
            width,
          );
          if (width < 600 && hiddenCells > 0)
            failures.push(`${where}: ${hiddenCells} table cells out of sight`);
          if (scrollWidth > width)
            failures.push(`${where}: ${scrollWidth} px wide (${await reachingPast(page, width)})`);
          for (const problem of await seriousA11yProblems(page, 'body'))
            failures.push(`${where}: ${problem}`);
          if (width === 390) await settledScreenshot(page, `every-${screen.name}-${width}-${language}`);
        }
        await context.close();
        assert.deepEqual(failures, []);
      });
});
