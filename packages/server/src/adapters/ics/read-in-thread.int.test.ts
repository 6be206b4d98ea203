import assert from 'node:assert/strict';
import { test } from 'node:test';
import { bigFeed } from './fixtures/generate.ts';
import { IcsLimitError } from './parse.ts';
import { readIcsInThread, type ThreadReadOptions } from './read-in-thread.ts';

// The reader thread's limits (issue 25 item 1): a rule that never matches, a budget of iterator
// steps, a deadline and a heap limit each end the read with a plain IcsLimitError; the thread is
// ended and the caller's event loop never waits on ical.js.

const calendar = (events: string) =>
  `BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\n${events}END:VCALENDAR\r\n`;
const series = (uid: string, rule: string) =>
  `BEGIN:VEVENT\r\nUID:${uid}\r\nDTSTAMP:20260101T000000Z\r\nDTSTART:20200101T000000Z\r\nDURATION:PT1M\r\nRRULE:${rule}\r\nSUMMARY:${uid}\r\nEND:VEVENT\r\n`;
const minutely = calendar(Array.from({ length: 8 }, (_, i) => series(`m${i}`, 'FREQ=MINUTELY')).join(''));
const options: ThreadReadOptions = {
  from: new Date('2026-01-01T00:00:00Z'),
  to: new Date('2028-01-01T00:00:00Z'),
  defaultZone: 'Europe/Berlin',
  maxEvents: 50_000,
  timeMs: 120_000,
  memoryMb: 256,
};

async function readAll(text: string, more: Partial<ThreadReadOptions> = {}) {
  const reader = await readIcsInThread(text, { ...options, ...more });
  let count = 0;
  for await (const batch of reader.batches) count += batch.length;
  return { count, skipped: reader.skipped, truncated: reader.truncated };
}

async function refusal(text: string, more: Partial<ThreadReadOptions> = {}) {
  const error = await readAll(text, more).then(
    () => assert.fail('the read was not refused'),
    (e: unknown) => e,
  );
  assert.ok(error instanceof IcsLimitError, String(error));
  return error;
}

test('a rule that never matches is refused with its reason', async () => {
  for (const rule of [
    'FREQ=DAILY;BYMONTH=2;BYMONTHDAY=31',
    'FREQ=SECONDLY;BYMONTH=2;BYMONTHDAY=30',
    'FREQ=HOURLY;BYMONTH=4,6;BYMONTHDAY=31',
  ]) {
    const error = await refusal(calendar(series('never@test', rule)));
    assert.equal(error.reason, 'neverMatches');
    assert.match(error.message, /The event "never@test" repeats by a rule that never matches \(BYMONTH=/);
  }
  // February 29th exists (leap years) and a day that exists in one of the months is enough.
  const leap = await readAll(calendar(series('leap@test', 'FREQ=DAILY;BYMONTH=2;BYMONTHDAY=29;COUNT=4')), {
    to: new Date('2029-01-01T00:00:00Z'),
  });
  assert.equal(leap.count, 1, '2028-02-29 (DTSTART, 2020-02-29 and 2024-02-29 are before the range)');
  const some = await readAll(calendar(series('some@test', 'FREQ=DAILY;BYMONTH=2,3;BYMONTHDAY=31;COUNT=8')));
  assert.ok(some.count > 0);
});

test("every inner step of ical.js's iterator counts against the feed's budget", async () => {
  // Eight MINUTELY series from 2020: most steps are walks before the range, inside next().
  const error = await refusal(minutely, { maxSteps: 10_000 });
  assert.equal(error.reason, 'tooManySteps');
  assert.match(error.message, /take too many steps to expand/);
});

test('a read past its deadline is stopped, the caller waits no longer', async () => {
  const started = performance.now();
  let slowestTurn = 0;
  let last = performance.now();
  const ticker = setInterval(() => {
    slowestTurn = Math.max(slowestTurn, performance.now() - last);
    last = performance.now();
  }, 20);
  try {
    const error = await refusal(minutely, { maxSteps: Number.POSITIVE_INFINITY, timeMs: 1500 });
    assert.equal(error.reason, 'timeLimit');
    assert.match(error.message, /took longer than 2 s and was stopped/);
  } finally {
    clearInterval(ticker);
  }
  assert.ok(performance.now() - started < 20_000, 'stopped at its deadline, not when ical.js was done');
  assert.ok(slowestTurn < 1000, `this event loop kept turning (slowest turn ${Math.round(slowestTurn)} ms)`);
});

test('a read over its heap limit is stopped', async () => {
  const error = await refusal(bigFeed(10_000), { memoryMb: 16 });
  assert.equal(error.reason, 'memoryLimit');
  assert.match(error.message, /needed more than 16 MB and was stopped/);
});

test('past the entry cap the read is refused, not cut short, when asked', async () => {
  const feed = bigFeed(1000);
  const cut = await readAll(feed, { maxEvents: 10 });
  assert.equal(cut.count, 10);
  assert.equal(cut.truncated, true);
  const error = await refusal(feed, { maxEvents: 10, refuseOverMaxEvents: true });
  assert.equal(error.reason, 'tooManyEntries');
});
