import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { ftpUpload } from '../../test/support/camera.ts';
import { freePort } from '../../test/support/destinations.ts';
import { makeProjectWithServer, makeTeam } from '../../test/support/factories.ts';
import { readImage } from '../../test/support/metadata.ts';
import { startTestServer, type TestServer } from '../../test/support/server.ts';

// Issue 30 item 4: an operator could not see uploads, deliveries, the queue or the process's
// health, and liveness was the only probe.
let server: TestServer;
let guarded: TestServer;
let metricsPort = 0;
const token = 'metrics-token-0123456789';
before(async () => {
  metricsPort = await freePort();
  server = await startTestServer({ ALLOW_PRIVATE_NETWORKS: '1', TRUST_PROXY: 'loopback' });
  guarded = await startTestServer({ METRICS_TOKEN: token, METRICS_PORT: String(metricsPort) });
});
after(async () => {
  await server.stop();
  await guarded.stop();
});

/** The value of one sample line (name with its labels as printed), 0 when absent. */
function sample(text: string, nameAndLabels: string): number {
  for (const line of text.split('\n')) {
    if (line.startsWith(`${nameAndLabels} `)) return Number(line.slice(nameAndLabels.length + 1));
  }
  return 0;
}

async function scrape(s: TestServer, headers: Record<string, string> = {}) {
  const res = await fetch(`${s.url}/api/metrics`, { headers });
  return { status: res.status, type: res.headers.get('content-type') ?? '', text: await res.text() };
}

test('liveness answers alone; readiness says the database answers and the ingest listens', async () => {
  const live = await server.client().get('/api/live');
  assert.deepEqual([live.status, live.body], [200, { status: 'alive' }]);
  const res = await server.client().get('/api/ready');
  assert.equal(res.status, 200);
  assert.deepEqual(res.body, { status: 'ready', database: 'ok', ingest: 'listening', disk: 'ok' });
});

test('metrics count an upload, its bytes and each delivery try by result and destination', async () => {
  const team = await makeTeam(server, 'Metrics');
  // A destination where nothing listens: every try fails, and the job waits for its next one.
  const port = await freePort();
  const { account, serverId } = await makeProjectWithServer(server, team, 'Observed', { port });
  const before = (await scrape(server)).text;
  const picture = readImage('exiftool-IPTC.jpg');
  await ftpUpload(server.running.ingest?.ftpPort, account, 'metrics.jpg', picture);

  const destination = `destination="Observed server",destination_id="server:${serverId}"`;
  let after = '';
  for (let i = 0; i < 100; i++) {
    after = (await scrape(server)).text;
    if (sample(after, `photorelay_delivery_tries_total{result="error",${destination}}`) >= 1) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  const ftp = 'protocol="ftp"';
  assert.equal(
    sample(after, `photorelay_uploads_received_total{${ftp}}`) -
      sample(before, `photorelay_uploads_received_total{${ftp}}`),
    1,
  );
  assert.equal(
    sample(after, `photorelay_upload_bytes_received_total{${ftp}}`) -
      sample(before, `photorelay_upload_bytes_received_total{${ftp}}`),
    picture.length,
  );
  assert.ok(sample(after, `photorelay_delivery_tries_total{result="error",${destination}}`) >= 1);
  // The failed job waits for its retry: the queue shows it, with its age (read at most once a
  // second, so a scrape a second later sees the state after the failed try).
  await new Promise((r) => setTimeout(r, 1100));
  after = (await scrape(server)).text;
  assert.ok(sample(after, 'photorelay_jobs_waiting') >= 1, 'a job waits');
  assert.ok(sample(after, 'photorelay_oldest_waiting_job_age_seconds') > 0);
  assert.ok(sample(after, 'photorelay_processing_seconds_count') >= 1, 'processing time observed');
  assert.equal(sample(after, 'photorelay_database_up'), 1);
  // The process itself: memory and the event loop.
  assert.ok(sample(after, 'process_resident_memory_bytes') > 10_000_000);
  assert.match(after, /^photorelay_event_loop_delay_max_seconds \d/m);
  assert.match(after, /^nodejs_eventloop_lag_p99_seconds \d/m);
});

test('metrics are for loopback or the token only, also behind a proxy', async () => {
  const plain = await scrape(server);
  assert.equal(plain.status, 200);
  assert.match(plain.type, /^text\/plain/);
  // Through a trusted local proxy the client is the forwarded address: not loopback.
  const proxied = await scrape(server, { 'x-forwarded-for': '203.0.113.7' });
  assert.equal(proxied.status, 404);

  assert.equal((await scrape(guarded)).status, 404, 'token set: loopback alone is not enough');
  assert.equal((await scrape(guarded, { authorization: 'Bearer wrong-token-0123456789' })).status, 404);
  const allowed = await scrape(guarded, { authorization: `Bearer ${token}` });
  assert.equal(allowed.status, 200);
  assert.match(allowed.text, /photorelay_jobs_waiting/);
});

test('METRICS_PORT: a listener of its own for processes without a web port', async () => {
  const res = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
  assert.equal(res.status, 200);
  assert.match(await res.text(), /^photorelay_jobs_waiting \d/m);
  assert.equal((await fetch(`http://127.0.0.1:${metricsPort}/other`)).status, 404);
});
