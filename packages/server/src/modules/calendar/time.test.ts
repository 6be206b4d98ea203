import assert from 'node:assert/strict';
import { test } from 'node:test';
import { allowedAccreditationChange, allowedStateChange } from './bookings.ts';
import { dayStart, fromLocal, inZone, monthAfter } from './time.ts';

test('instants read in the team zone across midnight and both DST changes', () => {
  // 01:30 UTC on 29 March 2026 is 03:30 summer time in Berlin: the clocks jumped at 02:00.
  assert.deepEqual(inZone(new Date('2026-03-29T01:30:00Z'), 'Europe/Berlin'), {
    iso: '2026-03-29T03:30:00+02:00',
    date: '29.03.2026',
    time: '03:30',
    day: '2026-03-29',
  });
  // 25 October 2026: 02:30 happens twice; the second one is +01:00.
  assert.equal(inZone(new Date('2026-10-25T01:30:00Z'), 'Europe/Berlin').iso, '2026-10-25T02:30:00+01:00');
  assert.equal(inZone(new Date('2026-10-25T00:30:00Z'), 'Europe/Berlin').iso, '2026-10-25T02:30:00+02:00');
  // 23:30 UTC on New Year's Eve is already the next day in Berlin.
  assert.equal(inZone(new Date('2026-12-31T23:30:00Z'), 'Europe/Berlin').date, '01.01.2027');
  assert.equal(inZone(new Date('2026-12-31T23:30:00Z'), 'America/New_York').time, '18:30');
});

test('wall-clock input becomes the right instant', () => {
  assert.equal(fromLocal('14.03.2026', '17:00', 'Europe/Berlin').toISOString(), '2026-03-14T16:00:00.000Z');
  assert.equal(fromLocal('14.07.2026', '17:00', 'Europe/Berlin').toISOString(), '2026-07-14T15:00:00.000Z');
  assert.equal(dayStart('2026-03-29', 'Europe/Berlin').toISOString(), '2026-03-28T23:00:00.000Z');
  // A month with a DST change is still a calendar month: midnight to midnight.
  const march = dayStart('2026-03-01', 'Europe/Berlin');
  assert.equal(monthAfter(march, 'Europe/Berlin').toISOString(), '2026-03-31T22:00:00.000Z');
});

test('booking transitions are exactly those of spec §4', () => {
  const states = ['unset', 'accepted', 'canceled', 'rejected'] as const;
  const allowed = states.flatMap((from) =>
    states.filter((to) => allowedStateChange(from, to) === null).map((to) => `${from}>${to}`),
  );
  assert.deepEqual(allowed, [
    'unset>accepted',
    'unset>canceled',
    'accepted>unset',
    'canceled>accepted',
    'rejected>accepted',
    'rejected>canceled',
  ]);
  assert.equal(allowedAccreditationChange('accepted', 'requested', 'processing'), null);
  assert.match(allowedAccreditationChange('accepted', 'requested', 'requested') ?? '', /already/);
  assert.match(allowedAccreditationChange('unset', 'notaccredited', 'requested') ?? '', /accepted booking/);
});
