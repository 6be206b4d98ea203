// Cold screens and tab switches in Chromium (issue 28 item 8: "every screen's main content < 1 s
// cold and < 300 ms on a tab switch"; the test-image preview took 2.1 s). This build against an
// older one (`--base`, default `main`: its server and web app built in a throwaway git worktree),
// each on its own server with the same data, in turns (old, new, old, new, …) so a busy moment of
// the machine hits both alike.
//
//   npx tsx bench/screens/run.ts [--runs 5] [--base REF] [--waterfall] [--only dashboard,metadata] [--latency-ms 40]
//
// Per build one team: three projects, the match's project with three FTP destinations (one
// refusing: its deliveries wait for a retry), the IPTC 2025.1 reference XMP as its template, 30
// pictures sent over FTP. Cold: a new browser context per visit (empty HTTP cache, the session
// cookie only), from the navigation's start to the frame after the screen's main content is in
// the DOM. Tab switch: on a cold project page, 4 s after it showed (a user reading it), a click
// on the next tab to the frame after its content is in the DOM. Test image: a 145 KB
// JPEG put into the metadata tab's drop area, from the input's change to the frame after the
// stamped result is shown. `--waterfall` prints one cold visit's requests per screen and build.
import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { jsonHeaders, newAccount, registerVerified, signIn } from '../../e2e/support/accounts.ts';
import { launchBrowser, newContext } from '../../e2e/support/browser.ts';
import { ftpUpload } from '../../e2e/support/ftp-upload.ts';
import {
  ensureWebBuild,
  freePort,
  repoRoot,
  startServer,
  type TestServer,
} from '../../e2e/support/server.ts';
import { newProject, rootFolderId, teamApi } from '../../e2e/support/team-api.ts';
import { buildServer } from '../../scripts/build-server.mjs';

const { values: opts } = parseArgs({
  options: {
    runs: { type: 'string', default: '5' },
    base: { type: 'string', default: 'main' },
    waterfall: { type: 'boolean', default: false },
    // Only these cold screens (names containing one of the comma-separated words), no tab switches.
    only: { type: 'string' },
    // A network's round trip added to every request (Chromium's emulation, in ms): on loopback a
    // request costs nothing, so requests made one after another only show their cost with it.
    'latency-ms': { type: 'string', default: '0' },
  },
});
const runs = Number(opts.runs);
const latencyMs = Number(opts['latency-ms']);

/** Every request of the page waits `latencyMs` more (the visit's network, not the machine). */
async function emulateNetwork(page: Page) {
  if (latencyMs <= 0) return;
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: latencyMs,
    downloadThroughput: -1,
    uploadThroughput: -1,
  });
}
const sharedData = path.resolve(repoRoot, '../shared/data');
const testImage = path.join(sharedData, 'images/IPTC-PhotometadataRef-Std2025.1.jpg');
const referenceXmp = path.join(sharedData, 'xmp/IPTC-PhotometadataRef-Std2025.1.extracted.xmp');
const pictureCount = 30;
const readingMs = 4000;

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return (
    sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? Number.NaN
  );
};
const fmt = (n: number) => (Number.isFinite(n) ? n.toFixed(0) : '-');

/** A git worktree of `ref` with its server bundle and web app built (removed at the end). */
function prepareBase(ref: string): { dir: string; commit: string } {
  const commit = execFileSync('git', ['rev-parse', '--short', ref], { cwd: repoRoot }).toString().trim();
  const dir = path.join(os.tmpdir(), `screens-base-${commit}`);
  const built = path.join(dir, 'packages/web/dist/index.html');
  if (fs.existsSync(built) && fs.existsSync(path.join(dir, 'packages/server/dist/main.mjs')))
    return { dir, commit };
  fs.rmSync(dir, { recursive: true, force: true });
  execFileSync('git', ['worktree', 'prune'], { cwd: repoRoot });
  execFileSync('git', ['worktree', 'add', '--detach', dir, ref], { cwd: repoRoot, stdio: 'ignore' });
  // Our node_modules, but the workspace packages from the base's tree.
  const modules = path.join(dir, 'node_modules');
  fs.mkdirSync(path.join(modules, '@photorelay'), { recursive: true });
  for (const entry of fs.readdirSync(path.join(repoRoot, 'node_modules'))) {
    if (entry === '@photorelay') continue;
    fs.symlinkSync(path.join(repoRoot, 'node_modules', entry), path.join(modules, entry));
  }
  for (const pkg of fs.readdirSync(path.join(repoRoot, 'node_modules/@photorelay'))) {
    const target = pkg === 'bench' || pkg === 'e2e' ? pkg : `packages/${pkg}`;
    fs.symlinkSync(path.join(dir, target), path.join(modules, '@photorelay', pkg));
  }
  console.log(`building ${ref} (${commit}) in ${dir} …`);
  const run = (args: string[]) => {
    const result = spawnSync(process.execPath, args, { cwd: dir, stdio: 'inherit' });
    if (result.status !== 0) throw new Error(`${args.join(' ')} failed in ${dir}`);
  };
  run(['-e', "import('./scripts/build-server.mjs').then((m) => m.buildServer())"]);
  run([
    path.join(modules, 'vite/bin/vite.js'),
    'build',
    path.join(dir, 'packages/web'),
    '--logLevel',
    'warn',
  ]);
  return { dir, commit };
}

/** The server bundle `entry` as `npm start` runs it, on a fresh DATA_DIR, with FTP ingest. */
async function launch(entry: string, cwd: string): Promise<{ server: TestServer; ftpPort: number }> {
  const port = await freePort();
  const ftpPort = await freePort();
  const pasv = 41_000 + Math.floor(Math.random() * 8000);
  const url = `http://127.0.0.1:${port}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'photorelay-screens-'));
  const child: ChildProcess = spawn(process.execPath, [entry], {
    cwd,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      SEED_DEMO: '0',
      PUBLIC_URL: url,
      LOG_LEVEL: 'error',
      AUTH_RATE_LIMIT: '1000',
      FTP_PORT: String(ftpPort),
      SFTP_PORT: String(await freePort()),
      PASV_PORTS: `${pasv}-${pasv + 40}`,
      ALLOW_PRIVATE_NETWORKS: '1',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  // startServer's helpers (mails, links) for a server started here.
  process.env.E2E_BASE_URL = url;
  process.env.E2E_DATA_DIR = dataDir;
  const server = await startServer();
  delete process.env.E2E_BASE_URL;
  delete process.env.E2E_DATA_DIR;
  const stop = async () => {
    if (child.exitCode === null) {
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill('SIGTERM');
      await exited;
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  return { server: { ...server, stop }, ftpPort };
}

type Seeded = { storageState: Awaited<ReturnType<BrowserContext['storageState']>>; projectId: number };

/** The same team on each build's server (see the top). */
async function seed(browser: Browser, server: TestServer, ftpPort: number): Promise<Seeded> {
  const context = await newContext(browser, server.url, { viewport: { width: 1366, height: 860 } });
  const page = await context.newPage();
  page.setDefaultTimeout(30_000);
  const owner = newAccount('ScreensBench');
  await registerVerified(server, page.request, owner);
  await signIn(page, owner);
  const api = await teamApi(page, server);
  const projectsRoot = await rootFolderId(api, 'projects');
  const serversRoot = await rootFolderId(api, 'ftpservers');
  const project = (name: string) => newProject(api, name, projectsRoot);
  const match = await project('Derby day');
  const agency = await project('Agency inbox');
  const archive = await project('Archive inbox');
  const addServer = async (name: string, port: number, account: { username: string; password: string }) => {
    const { ftpserverid } = await api.post<{ ftpserverid: number }>('ftpserver', {
      name,
      host: '127.0.0.1',
      port,
      protocol: 'ftp',
      username: account.username,
      password: account.password,
      parentFolderId: serversRoot,
    });
    await api.post(`project/${match.id}/ftpserver/${ftpserverid}`);
  };
  await addServer('Agency FTP', ftpPort, agency.account);
  await addServer('Archive FTP', ftpPort, archive.account);
  await addServer('Client FTP', await freePort(), { username: 'client', password: 'client-pw' });

  const started = await page.request.post(`${server.url}/api/${api.team}/command/storexmpfile`, {
    headers: jsonHeaders(server),
    data: {
      dbprojectid: match.id,
      filename: path.basename(referenceXmp),
      content: fs.readFileSync(referenceXmp, 'utf8'),
    },
  });
  if (!started.ok()) throw new Error(`storexmpfile: ${started.status()} ${await started.text()}`);
  const { commandId, token } = (await started.json()) as { commandId: number; token: string };
  for (let i = 0; ; i++) {
    const state = await api.get<{ state: string | null }>(`command/state/${commandId}/${token}`);
    if (state.state === 'ok') break;
    if (state.state === 'error' || i > 400) throw new Error(`import failed: ${JSON.stringify(state)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }

  const image = fs.readFileSync(testImage);
  for (let i = 1; i <= pictureCount; i++) {
    const filename = `DERBY_${String(i).padStart(4, '0')}.JPG`;
    await ftpUpload({ host: '127.0.0.1', port: ftpPort, ...match.account, filename, content: image });
  }
  // Every picture processed and its deliveries tried once.
  for (let i = 0; ; i++) {
    const log = await api.post<{
      count: number;
      pictures: { deliveries: { state: string; trynumber: number }[] }[];
    }>('pictures/50/0', { projectid: match.id });
    const settled = log.pictures.every(
      (p) =>
        p.deliveries.length === 3 && p.deliveries.every((d) => d.state === 'succeeded' || d.trynumber > 0),
    );
    if (log.count === pictureCount && settled) break;
    if (i > 600) throw new Error('the pictures did not settle');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const storageState = await context.storageState();
  await context.close();
  return { storageState, projectId: match.id };
}

// Runs in the page before its scripts: `window.__watch(selector)` notes the frame after an
// element matching `selector` is in the DOM (`__shownAt`); clicks and file inputs note their time
// (`__actionAt`), so a switch is timed from the click the page saw.
const watchScript = `
  (() => {
    let selector = null;
    window.__watch = (next) => { selector = next; window.__shownAt = undefined; check(); };
    const check = () => {
      if (!selector || window.__shownAt !== undefined || !document.querySelector(selector)) return;
      window.__shownAt = -1;
      requestAnimationFrame(() => requestAnimationFrame(() => { window.__shownAt = performance.now(); }));
    };
    new MutationObserver(check).observe(document, { childList: true, subtree: true, attributes: true });
    const note = () => { window.__actionAt = performance.now(); };
    document.addEventListener('click', note, true);
    document.addEventListener('change', note, true);
  })();
`;

type Screen = { name: string; url: (s: Seeded) => string; selector: string };

const metadataInput = '[data-testid="metadata-tab"] [data-testid^="xmp-input-"] :is(input, textarea)';
const screens: Screen[] = [
  {
    name: 'dashboard',
    url: () => '/',
    selector: '[data-testid="job-summary-table"], [data-testid="job-summary-empty"]',
  },
  {
    name: 'project overview',
    url: (s) => `/project/overview?id=${s.projectId}`,
    selector: '[data-testid="ftp-access"]',
  },
  {
    name: 'project destinations',
    url: (s) => `/project/destinations?id=${s.projectId}`,
    selector: '[data-testid="destination-ftpservers"]',
  },
  {
    name: 'project metadata (2025.1 template)',
    url: (s) => `/project/metadata?id=${s.projectId}`,
    selector: metadataInput,
  },
  {
    name: 'project script',
    url: (s) => `/project/script?id=${s.projectId}`,
    selector: '[data-testid="script-panel"] [data-testid="script-upload"]',
  },
  {
    name: 'project protocol (picture log)',
    url: (s) => `/project/protocol?id=${s.projectId}`,
    selector: '[data-testid="picture-row"]',
  },
  { name: 'FTP servers', url: () => '/team/ftpservers', selector: '[data-testid^="ftpserver-row-"]' },
  { name: 'users', url: () => '/users', selector: '[data-testid="users-table"]' },
  { name: 'calendar', url: () => '/calendar', selector: '[data-testid="calendar-range"]' },
  {
    name: "photographer's pictures",
    url: () => '/pictures',
    selector: '[data-testid="my-pictures"], [data-testid="my-pictures-empty"]',
  },
];
const onlyWords = opts.only?.split(',').map((w) => w.trim().toLowerCase());
const measured = onlyWords
  ? screens.filter((s) => onlyWords.some((w) => s.name.toLowerCase().includes(w)))
  : screens;
const tabOrder = ['destinations', 'metadata', 'script', 'protocol', 'overview'] as const;
const tabSelector = Object.fromEntries(
  screens
    .filter((s) => s.name.startsWith('project '))
    .map((s) => [s.url({ projectId: 0 } as Seeded).replace(/^\/project\/(\w+).*/, '$1'), s.selector]),
) as Record<(typeof tabOrder)[number], string>;

async function shown(page: Page, since: '__actionAt' | 'navigation') {
  await page.waitForFunction(() => (window as { __shownAt?: number }).__shownAt! > 0, undefined, {
    timeout: 30_000,
    polling: 20,
  });
  return (await page.evaluate(
    `window.__shownAt - ${since === 'navigation' ? 0 : 'window.__actionAt'}`,
  )) as number;
}

async function coldVisit(browser: Browser, base: string, seeded: Seeded, screen: Screen, waterfall: boolean) {
  const context = await browser.newContext({
    baseURL: base,
    storageState: seeded.storageState,
    locale: 'en-US',
    viewport: { width: 1366, height: 860 },
    deviceScaleFactor: 1,
  });
  try {
    const page = await context.newPage();
    await page.addInitScript(`${watchScript}; window.__watch(${JSON.stringify(screen.selector)});`);
    await emulateNetwork(page);
    await page.goto(screen.url(seeded));
    const ms = await shown(page, 'navigation');
    if (waterfall) {
      const timeline = (await page.evaluate(`performance.getEntriesByType('resource').map((e) =>
        [Math.round(e.startTime), Math.round(e.responseEnd), e.name.replace(location.origin, ''), e.transferSize])`)) as [
        number,
        number,
        string,
        number,
      ][];
      console.log(`  ${screen.name}: shown at ${fmt(ms)} ms`);
      for (const [start, end, name, size] of timeline)
        console.log(
          `    ${String(start).padStart(5)} ${String(end).padStart(5)} ${String(Math.round(size / 1024)).padStart(4)} KB  ${name.slice(0, 110)}`,
        );
    }
    return ms;
  } finally {
    await context.close();
  }
}

/** A cold overview, then each tab in `tabOrder` by a click; then the test image on the metadata tab. */
async function switches(browser: Browser, base: string, seeded: Seeded) {
  const context = await browser.newContext({
    baseURL: base,
    storageState: seeded.storageState,
    locale: 'en-US',
    viewport: { width: 1366, height: 860 },
    deviceScaleFactor: 1,
  });
  try {
    const page = await context.newPage();
    await page.addInitScript(`${watchScript}; window.__watch(${JSON.stringify(tabSelector.overview)});`);
    await emulateNetwork(page);
    await page.goto(`/project/overview?id=${seeded.projectId}`);
    await shown(page, 'navigation');
    // A user reads the page before the first switch; the other tabs' code loads meanwhile.
    await page.waitForTimeout(readingMs);
    const times: Record<string, number> = {};
    for (const tab of tabOrder) {
      await page.evaluate(`window.__watch(${JSON.stringify(tabSelector[tab])})`);
      await page.getByTestId(`project-tab-${tab}`).click();
      times[tab] = await shown(page, '__actionAt');
    }
    // The test image, on the metadata tab opened by a click (its code and data there already).
    await page.evaluate(`window.__watch(${JSON.stringify(tabSelector.metadata)})`);
    await page.getByTestId('project-tab-metadata').click();
    await shown(page, '__actionAt');
    await page.evaluate(`window.__watch('[data-testid="xmp-preview-result"]')`);
    await page.getByTestId('xmp-preview-input').setInputFiles(testImage);
    times['test image → stamped result'] = await shown(page, '__actionAt');
    return times;
  } finally {
    await context.close();
  }
}

const base = prepareBase(opts.base ?? 'main');
ensureWebBuild();
const ourEntry = await buildServer({ onlyIfStale: true });
const builds = [
  {
    label: `base ${base.commit}`,
    ...(await launch(path.join(base.dir, 'packages/server/dist/main.mjs'), base.dir)),
  },
  { label: 'this build', ...(await launch(ourEntry, repoRoot)) },
];
let browser: Browser | undefined;
try {
  browser = await launchBrowser();
  const seeded = [] as Seeded[];
  for (const b of builds) seeded.push(await seed(browser, b.server, b.ftpPort));
  console.log(`seeded both servers (${pictureCount} pictures each)`);

  const cold = builds.map(() => new Map<string, number[]>());
  const switched = builds.map(() => new Map<string, number[]>());
  // One warm-up round per build (the servers' first answers, Chromium's first compile), not counted.
  for (const [i, b] of builds.entries()) {
    for (const s of screens) await coldVisit(browser, b.server.url, seeded[i]!, s, false);
    await switches(browser, b.server.url, seeded[i]!);
  }
  if (opts.waterfall) {
    for (const [i, b] of builds.entries()) {
      console.log(`\n${b.label}: one cold visit per screen (start, end ms; transferred; request)`);
      for (const s of screens) await coldVisit(browser, b.server.url, seeded[i]!, s, true);
    }
  }
  const push = (map: Map<string, number[]>, key: string, ms: number) =>
    map.set(key, [...(map.get(key) ?? []), ms]);
  for (let run = 0; run < runs; run++) {
    for (const [i, b] of builds.entries()) {
      for (const s of measured)
        push(cold[i]!, s.name, await coldVisit(browser, b.server.url, seeded[i]!, s, false));
      if (onlyWords) continue;
      for (const [tab, ms] of Object.entries(await switches(browser, b.server.url, seeded[i]!)))
        push(switched[i]!, tab, ms);
    }
    console.log(`run ${run + 1} of ${runs}, load ${os.loadavg()[0]?.toFixed(1)}`);
  }

  console.log(
    `\nChromium ${browser.version()}, ${runs} runs, ${latencyMs} ms latency added per request, load average ${fs.readFileSync('/proc/loadavg', 'utf8').trim()}`,
  );
  const [oldLabel, newLabel] = builds.map((b) => b.label);
  console.log(`median / p90 ms${' '.repeat(28)}${newLabel!.padEnd(16)}${oldLabel}`);
  const row = (name: string, mine: number[], old: number[]) =>
    console.log(
      `${name.padEnd(44)}${`${fmt(percentile(mine, 50))} / ${fmt(percentile(mine, 90))}`.padEnd(16)}${fmt(percentile(old, 50))} / ${fmt(percentile(old, 90))}`,
    );
  console.log('cold: navigation → main content painted (goal < 1,000)');
  for (const s of measured) row(`  ${s.name}`, cold[1]!.get(s.name) ?? [], cold[0]!.get(s.name) ?? []);
  console.log('after a cold overview, click → tab content painted (goal < 300)');
  for (const key of switched[1]!.keys())
    row(`  ${key}`, switched[1]!.get(key) ?? [], switched[0]!.get(key) ?? []);
} finally {
  await browser?.close();
  for (const b of builds) await b.server.stop();
  execFileSync('git', ['worktree', 'remove', '--force', base.dir], { cwd: repoRoot, stdio: 'ignore' });
}
