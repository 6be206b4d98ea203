import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { testBackend } from '../../test/support/database.ts';
import {
  burst,
  type FirstHourSetup,
  fewUploadsThenFirstMaintenance,
  freshInstall,
} from '../../test/support/first-busy-hour.ts';

/**
 * Issue 29, 2: a fresh embedded install, a few uploads, the first maintenance (statistics of
 * nearly empty tables), then 1,200 small pictures from 16 cameras: all delivered to both
 * destinations within 60 s of the last acknowledgement. Before the fix the delivery claim kept a
 * generic plan made for the empty tables (1.6 s a run) and deliveries crawled at 0.5 per second.
 * The embedded database's case: on PostgreSQL autovacuum and unnamed statements plan anew.
 */

let setup: FirstHourSetup | undefined;
after(async () => {
  await setup?.close();
});

test('first busy hour: 1,200 pictures after the first maintenance are delivered twice within 60 s of the last ack', {
  skip: testBackend() === 'postgres' && 'the embedded database only',
  timeout: 600_000,
}, async (t) => {
  setup = await freshInstall();
  await fewUploadsThenFirstMaintenance(setup);
  const figures = await burst(setup, {
    prefix: 'BURST',
    cameras: 16,
    perCamera: 75,
    deliveryTimeoutMs: 60_000,
  });
  t.diagnostic(JSON.stringify(figures));
  assert.equal(
    figures.delivered,
    2 * figures.pictures,
    `${figures.delivered} of ${2 * figures.pictures} delivered within 60 s of the last ack (uploads took ${figures.uploadMs} ms)`,
  );
  assert.ok(figures.lastAckToDeliveredMs <= 60_000, JSON.stringify(figures));
});
