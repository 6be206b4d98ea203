// Issue 28: a match day in the job log. A project sends to three FTP servers (two of them our
// own ingest accounts, one where nothing listens) through a script that fails on one picture;
// the failing destination is named once with its waiting pictures, filters and the file-name
// search find rows, "Retry all failed" and "Send again" deliver with today's caption; the
// screens fit a 390 px phone and axe finds nothing serious, in English and German.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { seriousA11yProblems } from './support/a11y.ts';
import { jsonHeaders } from './support/accounts.ts';
import { type PageProblems, watchProblems } from './support/browser.ts';
import { ftpUpload } from './support/ftp-upload.ts';
import { settledScreenshot } from './support/screens.ts';
import { freePort, repoRoot } from './support/server.ts';
import { browserSuite, signUpOwner } from './support/suite.ts';
import { addFtpDestination, newProject, rootFolderId, type TeamApi } from './support/team-api.ts';
import { sleep, until } from './support/wait.ts';

/** Pictures seeded through the camera's FTP (one of them stopped by the script). */
const pictureCount = Number(process.env.E2E_JOBLOG_PICTURES ?? 24);
/** The picture log shows 25 rows a page; a larger day is searched for the rows a test needs. */
const onOnePage = pictureCount <= 25;
const image = fs.readFileSync(path.resolve(repoRoot, '../shared/data/images/exiftool-IPTC.jpg'));

type Pictures = {
  count: number;
  pictures: Array<{
    uploadId: number;
    filename: string;
    deliveries: Array<{ name: string; state: string; trynumber: number }>;
  }>;
  problems: Array<{ name: string; waiting: number }>;
};

describe('the job log on a match day', () => {
  let page: Page;
  let problems: PageProblems;
  let api: TeamApi;
  let ftpPort: number;
  let matchId = 0;
  let agencyId = 0;
  let clientServerId = 0;
  const names = Array.from({ length: pictureCount }, (_, i) =>
    i === 5 ? 'BAD_0006.JPG' : `GOAL_${String(i + 1).padStart(4, '0')}.JPG`,
  );

  const storeScript = async (content: string) => {
    const started = await api.post<{ commandId: number; token: string }>('command/storescriptfile', {
      filename: 'caption.script',
      content,
      dbprojectid: matchId,
    });
    for (let i = 0; i < 200; i++) {
      const state = await api.get<{ state: string | null }>(
        `command/state/${started.commandId}/${started.token}`,
      );
      if (state.state === 'ok') return;
      if (state.state !== null) throw new Error(`script refused: ${JSON.stringify(state)}`);
      await sleep(50);
    }
    throw new Error('script not stored');
  };
  const pictures = (projectid: number, filter: Record<string, unknown> = {}) =>
    api.post<Pictures>('pictures/200/0', { projectid, ...filter });
  /** The caption of the newest copy of `name` that arrived in the Agency inbox. */
  const agencyCaption = async (name: string, copies: number) => {
    const inbox = await until(
      `${copies} copies of ${name} in the Agency inbox`,
      () => pictures(agencyId, { search: name }),
      (p) => p.count >= copies,
    );
    const newest = inbox.pictures[0];
    assert.ok(newest);
    return (await api.get<{ caption: string | null }>(`upload/${newest.uploadId}/caption`)).caption;
  };

  const suite = browserSuite({ ingest: true });

  before(async () => {
    page = await suite.openPage();
    problems = watchProblems(page);
    ({ api } = await signUpOwner(suite.server, page, 'Mia', 'Mia Matchday Media'));
    ftpPort = suite.ftpPort;
    const projectsRoot = await rootFolderId(api, 'projects');
    const serversRoot = await rootFolderId(api, 'ftpservers');
    const project = (name: string) => newProject(api, name, projectsRoot);
    const match = await project('Derby day');
    const agency = await project('Agency inbox');
    const archive = await project('Archive inbox');
    matchId = match.id;
    agencyId = agency.id;
    const addServer = (name: string, port: number, account: { username: string; password: string }) =>
      addFtpDestination(api, matchId, { name, port, ...account }, serversRoot);
    await addServer('Agency FTP', ftpPort, agency.account);
    await addServer('Archive FTP', ftpPort, archive.account);
    // Nothing listens here: every delivery to Client FTP waits for its next try.
    clientServerId = await addServer('Client FTP', await freePort(), {
      username: 'client',
      password: 'client-pw',
    });
    await storeScript(
      "meta.set('caption', 'Derby: first caption');\nif (file.name.includes('BAD')) null.boom;",
    );
    for (const filename of names)
      await ftpUpload({ host: '127.0.0.1', port: ftpPort, ...match.account, filename, content: image });
    await until(
      'the day settled',
      () => pictures(matchId),
      (p) =>
        p.count === pictureCount &&
        p.pictures.every((pic) =>
          pic.deliveries.every(
            (d) =>
              d.state === 'succeeded' || d.state === 'failed' || (d.state === 'scheduled' && d.trynumber > 0),
          ),
        ),
      180_000,
    );
  });

  it('names the failing destination once with its waiting pictures, the script error once on its picture', async () => {
    await page.goto(`/project/protocol?id=${matchId}`);
    const banners = page.getByTestId('destination-problem');
    await banners.first().waitFor();
    assert.equal(await banners.count(), 1);
    const text = (await banners.first().textContent()) ?? '';
    assert.match(
      text,
      new RegExp(`Client FTP refused the connection – ${pictureCount - 1} pictures waiting`),
    );
    await page.getByTestId('picture-row').first().waitFor();
    assert.equal(await page.getByTestId('delivery-cause').count(), 0, 'nothing repeated under the pictures');
    // With E2E_JOBLOG_PICTURES=500 the stopped picture is on a later page: the search finds it.
    if (!onOnePage) await page.getByTestId('picture-search').fill('bad_0006');
    const bad = page.locator('[data-testid="picture-row"][data-filename="BAD_0006.JPG"]');
    assert.match(
      (await bad.getByTestId('picture-cause').textContent()) ?? '',
      /Script error in caption\.script, line 2: /,
    );
    assert.equal(
      await page.getByTestId('picture-cause').count(),
      1,
      'only the script-stopped picture has one',
    );
    if (!onOnePage) await page.getByRole('button', { name: 'Clear filters' }).click();
    assert.deepEqual(problems.errors, []);
    await settledScreenshot(page, 'joblog-1-protocol-1366-en');
  });

  it('filters "failed" and searches a file name on the server', async () => {
    await page.getByTestId('picture-state-filter').click();
    await page.getByTestId('picture-state-failed').click();
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="picture-row"]').length === 1);
    assert.equal(await page.getByTestId('picture-file').textContent(), 'BAD_0006.JPG');
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await page.getByTestId('picture-search').fill('goal_0004');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="picture-row"]').length === 1);
    assert.equal(await page.getByTestId('picture-file').textContent(), 'GOAL_0004.JPG');
    await page.getByRole('button', { name: 'Clear filters' }).click();
  });

  for (const language of ['en', 'de'] as const)
    for (const width of [1366, 390])
      it(`fits ${width} px without sideways scrolling, axe finds nothing serious (${language})`, async () => {
        const screen = await suite.openPage({ language, viewport: { width, height: 860 }, sessionOf: page });
        const waitFor = {
          protocol: 'picture-row',
          pictures: 'my-picture',
          ftpservers: 'ftpserver-health',
          ftpserver: 'ftpserver-health',
        };
        for (const [name, url] of [
          ['protocol', `/project/protocol?id=${matchId}`],
          ['pictures', '/pictures'],
          ['ftpservers', '/team/ftpservers'],
          ['ftpserver', `/ftpserver?id=${clientServerId}`],
        ] as const) {
          await screen.goto(url);
          await screen.getByTestId(waitFor[name]).first().waitFor();
          if (name === 'ftpservers')
            assert.equal(
              await screen.locator('[data-testid="ftpserver-health"][data-state="failing"]').count(),
              1,
              'Client FTP, and only it, is failing',
            );
          if (name === 'protocol') {
            const first = screen.getByTestId('picture-row').first();
            await first.getByTestId('picture-expand').click();
            await first.getByTestId('picture-deliveries').waitFor();
          }
          const scrollWidth = await screen.evaluate(() => document.documentElement.scrollWidth);
          assert.ok(scrollWidth <= width, `${name} is ${scrollWidth} px wide at ${width} px`);
          assert.deepEqual(await seriousA11yProblems(screen), [], `${name} at ${width} px (${language})`);
          await settledScreenshot(screen, `joblog-${name}-${width}-${language}`);
        }
        await screen.context().close();
      });

  it('"Retry all failed" delivers the picture the fixed script now lets through', async () => {
    await storeScript("meta.set('caption', 'Derby: corrected caption');");
    await page.getByTestId('retry-all-failed').click();
    await page.getByText(/deliveries go again now/).waitFor();
    assert.equal(await agencyCaption('BAD_0006', 1), 'Derby: corrected caption');
    await page
      .locator('[data-testid="picture-row"][data-filename="BAD_0006.JPG"]')
      .getByTestId('picture-cause')
      .waitFor({ state: 'detached' });
  });

  it('"Send again" sends a delivered picture with today’s caption', async () => {
    // Client FTP is taken off the project, so GOAL_0001 has nothing waiting any more.
    const row = page.locator('[data-testid="picture-row"][data-filename="GOAL_0001.JPG"]');
    assert.equal(await agencyCaption('GOAL_0001', 1), 'Derby: first caption');
    const removed = await page.request.delete(
      `${suite.server.url}/api/${api.team}/project/${matchId}/ftpserver/${clientServerId}`,
      { headers: jsonHeaders(suite.server), data: {} },
    );
    assert.ok(removed.ok(), await removed.text());
    await page.goto(`/project/protocol?id=${matchId}`);
    if (!onOnePage) await page.getByTestId('picture-search').fill('goal_0001');
    await row.getByTestId('picture-expand').click();
    await row.getByTestId('picture-send-again').click();
    await page.getByTestId('send-again-confirm').click();
    await page.getByText(/Sent again to 2 destinations/).waitFor();
    assert.equal(await agencyCaption('GOAL_0001', 2), 'Derby: corrected caption');
    await settledScreenshot(page, 'joblog-2-sent-again-1366-en');
  });
});
