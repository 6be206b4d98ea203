import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  defaultEnd,
  formatDate,
  formatTime,
  isValidDateText,
  isValidTimeText,
  parseLocal,
  todayText,
  toOffsetIso,
} from './calendar-time.ts';

const berlin = 'Europe/Berlin';

describe('calendar time', () => {
  it('accepts only dd.mm.yyyy real days and hh:mm', () => {
    assert.equal(isValidDateText('23.11.2026'), true);
    assert.equal(isValidDateText('2026-11-23'), false);
    assert.equal(isValidDateText('3.11.2026'), false);
    assert.equal(isValidDateText('31.02.2026'), false);
    assert.equal(isValidTimeText('17:00'), true);
    assert.equal(isValidTimeText('24:00'), false);
    assert.equal(isValidTimeText('7:00'), false);
    assert.equal(isValidTimeText('17:60'), false);
  });

  it('renders instants in the team zone, not the browser one', () => {
    assert.equal(formatDate('2026-10-24T23:30:00Z', berlin), '25.10.2026');
    assert.equal(formatTime('2026-10-24T23:30:00Z', berlin), '01:30');
    assert.equal(formatTime('2026-10-24T23:30:00Z', 'America/New_York'), '19:30');
  });

  it('shows the right local times across the DST changes', () => {
    // 25 Oct 2026: 03:00 CEST falls back to 02:00 CET, so 02:30 happens twice, an hour apart.
    assert.equal(formatTime('2026-10-25T00:30:00Z', berlin), '02:30');
    assert.equal(formatTime('2026-10-25T01:30:00Z', berlin), '02:30');
    assert.equal(formatTime('2026-03-29T00:30:00Z', berlin), '01:30');
    assert.equal(formatTime('2026-03-29T01:30:00Z', berlin), '03:30');
  });

  it('reads typed wall-clock times in the zone and writes them with the right offset', () => {
    const winter = parseLocal('23.11.2026', '17:00', berlin);
    assert.ok(winter);
    assert.equal(toOffsetIso(winter, berlin), '2026-11-23T17:00:00+01:00');
    assert.equal(new Date(winter.getTime()).toISOString(), '2026-11-23T16:00:00.000Z');
    const summer = parseLocal('01.07.2026', '17:00', berlin);
    assert.ok(summer);
    assert.equal(toOffsetIso(summer, berlin), '2026-07-01T17:00:00+02:00');
    assert.equal(parseLocal('31.02.2026', '17:00', berlin), null);
    assert.equal(parseLocal('01.07.2026', '7:00', berlin), null);
  });

  it('ends two real hours later, across midnight and DST', () => {
    assert.deepEqual(defaultEnd('23.11.2026', '17:00', berlin), { date: '23.11.2026', time: '19:00' });
    assert.deepEqual(defaultEnd('23.11.2026', '23:30', berlin), { date: '24.11.2026', time: '01:30' });
    // 29 Mar 2026 02:00 does not exist in Berlin: 01:30 + 2 h = 04:30 CEST.
    assert.deepEqual(defaultEnd('29.03.2026', '01:30', berlin), { date: '29.03.2026', time: '04:30' });
    assert.equal(defaultEnd('bad', '17:00', berlin), null);
  });

  it('tells today in the zone', () => {
    assert.equal(todayText(berlin, new Date('2026-12-31T23:30:00Z')), '01.01.2027');
  });
});
