import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { TestClient } from '../../test/support/client.ts';
import { serverProcess } from '../../test/support/process.ts';

// Issue 25 (low): a calendar feed's URL carries its token (/api/calendarfeed/{selector}/{token}.ics)
// and appeared whole in the info log; it is cut like the other tokens.

test('the info log shows a calendar feed request without its token', async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'photorelay-log-'));
  const server = await serverProcess({ dataDir, env: { LOG_LEVEL: 'info' } });
  try {
    await server.start();
    const client = new TestClient(server.url);
    await client.get('/api/calendarfeed/feedselector1/secret-feed-token-4711.ics');
    await client.get('/api/calendarfeed/feedselector2/secret-feed-token-4712.ics?x=1');
    await new Promise((resolve) => setTimeout(resolve, 300));
    const log = server.output();
    assert.match(log, /calendarfeed\/feedselector1\/…/, log.slice(-2000));
    assert.match(log, /calendarfeed\/feedselector2\/…\?x=1/);
    assert.ok(!log.includes('secret-feed-token'), 'no feed token in the log');
  } finally {
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});
