// Stamping with a time limit: the engine's work runs on a stamp thread, so the caller's event
// loop keeps turning while a large packet is processed; a file over the limit fails with
// TIME_LIMIT, and the next file is stamped on a fresh thread. Results match in-thread stamping.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MetadataError } from './errors.ts';
import {
  fullTemplate,
  manyProperties,
  readSample,
  sampleImages,
  stampBuffer,
  withSegments,
} from './test-support.ts';
import { xmpSegments } from './xmp-jpeg.ts';
import { MAX_XMP_PROPERTIES } from './xmp-packet.ts';

const headline = {
  modes: { headline: 'replace' as const },
  values: [{ propertytypeids: 'headline', value: 'H' }],
};

/** The longest gap between ticks of a 5 ms interval while `run` is in progress. */
async function longestStall(run: () => Promise<unknown>): Promise<number> {
  let last = performance.now();
  let longest = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
  }, 5);
  try {
    await run();
  } finally {
    clearInterval(timer);
  }
  return Math.max(longest, performance.now() - last);
}

describe('stamping on a stamp thread (timeLimitMs)', () => {
  const template = fullTemplate();
  for (const name of sampleImages()) {
    it(`${name}: the same bytes and warnings as on the caller's thread`, async () => {
      const input = readSample(name);
      const here = await stampBuffer(input, template, { filename: name });
      const threaded = await stampBuffer(input, template, { filename: name, timeLimitMs: 30_000 });
      assert.ok(threaded.output.equals(here.output));
      assert.deepEqual(threaded.warnings, here.warnings);
      assert.deepEqual(threaded.unknownVariables, here.unknownVariables);
    });
  }

  it('keeps the event loop turning while a packet of 9,000 properties is processed', async () => {
    const input = withSegments(xmpSegments(manyProperties(9000)));
    await stampBuffer(input, headline, { timeLimitMs: 60_000 }); // the thread is started and warm
    let started = performance.now();
    const blocking = await longestStall(() => stampBuffer(input, headline));
    const inThread = performance.now() - started;
    started = performance.now();
    const threaded = await longestStall(() => stampBuffer(input, headline, { timeLimitMs: 60_000 }));
    const onThread = performance.now() - started;
    // On the caller's thread the whole engine work is one stall; on a stamp thread only the
    // reading and writing of the segments is (a fraction of it).
    assert.ok(blocking > 0.5 * inThread, `caller's thread: stall ${blocking} of ${inThread} ms`);
    assert.ok(threaded < 0.5 * onThread, `stamp thread: stall ${threaded} of ${onThread} ms`);
    assert.ok(threaded < blocking, `stall ${threaded} ms on a stamp thread, ${blocking} ms without`);
  });

  it('stops a file over the time limit with TIME_LIMIT, and stamps the next one on a fresh thread', async () => {
    const input = withSegments(xmpSegments(manyProperties(9000)));
    await assert.rejects(
      stampBuffer(input, headline, { timeLimitMs: 1 }),
      (error: unknown) =>
        error instanceof MetadataError &&
        error.code === 'TIME_LIMIT' &&
        /took longer than 1 ms/.test(error.message),
    );
    const sample = readSample('exiftool-XMP.jpg');
    const after = await stampBuffer(sample, template, { timeLimitMs: 30_000 });
    assert.ok(after.output.equals((await stampBuffer(sample, template)).output));
  });

  it('passes the engine’s own refusals through with their code', async () => {
    const input = withSegments(xmpSegments(manyProperties(MAX_XMP_PROPERTIES + 6000)));
    await assert.rejects(
      stampBuffer(input, headline, { timeLimitMs: 60_000 }),
      (error: unknown) => error instanceof MetadataError && error.code === 'METADATA_TOO_LARGE',
    );
  });
});
