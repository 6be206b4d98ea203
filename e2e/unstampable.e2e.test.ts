// Issue 26: pictures the engine could not write metadata into are not shown as plainly
// delivered. A project that holds such pictures shows "Held — no metadata could be written" with
// the reason on the picture log row and the phone page, one click ("Send as is") sends it; a
// picture whose camera EXIF could not be changed safely says which texts kept the old value;
// the dashboard counts them. The screens fit 390 px and axe finds nothing serious, en and de.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { seriousA11yProblems } from './support/a11y.ts';
import { type PageProblems, watchProblems } from './support/browser.ts';
import { ftpUpload } from './support/ftp-upload.ts';
import { settledScreenshot } from './support/screens.ts';
import { repoRoot } from './support/server.ts';
import { browserSuite, signUpOwner } from './support/suite.ts';
import { addFtpDestination, newProject, rootFolderId, type TeamApi } from './support/team-api.ts';
import { until } from './support/wait.ts';

/** A JPEG whose head ends inside its APP1 segment: no engine can stamp it. */
const unstampable = Buffer.concat([
  Buffer.from([0xff, 0xd8, 0xff, 0xe1, 0x10, 0x00]),
  Buffer.alloc(100, 0x41),
]);
/** A camera file whose Exif TIFF header is broken: XMP is written, the EXIF Artist cannot be. */
const brokenExif = (() => {
  const input = Buffer.from(
    fs.readFileSync(path.resolve(repoRoot, '../shared/data/images/exiftool-XMP.jpg')),
  );
  input.write('XX', input.indexOf(Buffer.from('Exif\0\0', 'latin1')) + 6, 'latin1');
  return input;
})();

type Pictures = {
  pictures: Array<{ filename: string; deliveries: Array<{ state: string }> }>;
};

describe('pictures without metadata', () => {
  let page: Page;
  let problems: PageProblems;
  let api: TeamApi;
  let matchId = 0;

  const pictures = () => api.post<Pictures>('pictures/50/0', { projectid: matchId });
  const stateOf = (p: Pictures, name: string) =>
    p.pictures.find((x) => x.filename === name)?.deliveries[0]?.state;

  const suite = browserSuite({ ingest: true });

  before(async () => {
    page = await suite.openPage();
    problems = watchProblems(page);
    ({ api } = await signUpOwner(suite.server, page, 'Ute', 'Ute Unstamped Media'));
    const projectsRoot = await rootFolderId(api, 'projects');
    const project = (name: string) => newProject(api, name, projectsRoot);
    const match = await project('Cup final');
    const agency = await project('Agency inbox');
    matchId = match.id;
    await addFtpDestination(api, matchId, { name: 'Agency FTP', port: suite.ftpPort, ...agency.account });
    await api.put(`project/${matchId}/xmpvalue/creatorNames`, { value: 'Ute Unstamped' });
    await api.put(`project/${matchId}/xmpvaluemode/creatorNames/mode/replace`);
    await api.put(`project/${matchId}/metadatasettings`, { holdUnstampable: true });
    const upload = (filename: string, content: Buffer) =>
      ftpUpload({ host: '127.0.0.1', port: suite.ftpPort, ...match.account, filename, content });
    await upload('EXIF_0001.JPG', brokenExif);
    await upload('BROKEN_0002.JPG', unstampable);
    await until(
      'held and delivered',
      pictures,
      (p) => stateOf(p, 'BROKEN_0002.JPG') === 'held' && stateOf(p, 'EXIF_0001.JPG') === 'succeeded',
    );
  });

  it('the picture log says why a picture is held and which EXIF texts kept the old value', async () => {
    await page.goto(`/project/protocol?id=${matchId}`);
    const held = page.locator('[data-testid="picture-row"][data-filename="BROKEN_0002.JPG"]');
    assert.match(
      (await held.getByTestId('picture-held').textContent()) ?? '',
      /^Held — no metadata could be written: file ends inside segment 0xe1/,
    );
    const exif = page.locator('[data-testid="picture-row"][data-filename="EXIF_0001.JPG"]');
    assert.equal(
      await exif.getByTestId('picture-exif-not-updated').textContent(),
      "The camera's EXIF block could not be changed safely; Artist was not updated.",
    );
    assert.equal(await exif.getByTestId('picture-release').count(), 0);
    assert.deepEqual(problems.errors, []);
  });

  for (const language of ['en', 'de'] as const)
    for (const width of [1366, 390] as const)
      it(`fits ${width} px without sideways scrolling, axe finds nothing serious (${language})`, async () => {
        const screen = await suite.openPage({ language, viewport: { width, height: 860 }, sessionOf: page });
        for (const [name, url, testId] of [
          ['protocol', `/project/protocol?id=${matchId}`, 'picture-held'],
          ['pictures', '/pictures', 'picture-held'],
          ['dashboard', '/', 'summary-held'],
        ] as const) {
          await screen.goto(url);
          await screen.getByTestId(testId).first().waitFor();
          await settledScreenshot(screen, `unstampable-${name}-${width}-${language}`);
          const scrollWidth = await screen.evaluate(() => document.documentElement.scrollWidth);
          assert.ok(scrollWidth <= width, `${name} is ${scrollWidth} px wide at ${width} px`);
          assert.deepEqual(await seriousA11yProblems(screen), [], `${name} at ${width} px (${language})`);
        }
        await screen.context().close();
      });

  it('"Send as is" sends the held picture with one click', async () => {
    await page.goto('/pictures');
    const card = page.getByTestId('my-picture').filter({ hasText: 'BROKEN_0002.JPG' });
    assert.equal(await card.getByTestId('my-picture-delivery').getAttribute('data-tone'), 'held');
    await page.goto(`/project/protocol?id=${matchId}`);
    const row = page.locator('[data-testid="picture-row"][data-filename="BROKEN_0002.JPG"]');
    await row.getByTestId('picture-release').click();
    await page.getByText('1 delivery goes out without metadata now.').waitFor();
    await until('delivered as it came', pictures, (p) => stateOf(p, 'BROKEN_0002.JPG') === 'succeeded');
    await row.getByTestId('picture-unstamped').waitFor();
    assert.equal(await row.getByTestId('picture-release').count(), 0);
    assert.deepEqual(problems.errors, []);
  });
});
