import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { chartDays, chartRange, fillHours, fillMinutes, totals } from './traffic-series.ts';

describe('hourly traffic of the overview chart', () => {
  const now = Date.parse('2025-05-03T10:25:00Z');
  const stats = [
    { hour: '2025-05-03T10:00:00.000Z', filesIn: 3, bytesIn: 3000, filesOut: 2, bytesOut: 2000 },
    { hour: '2025-05-01T11:00:00.000Z', filesIn: 1, bytesIn: 100, filesOut: 0, bytesOut: 0 },
  ];

  it('has one point per hour for the last 3 days, ending with the current hour', () => {
    const points = fillHours(stats, now, 3);
    assert.equal(points.length, 72);
    assert.equal(points[71].hour, '2025-05-03T10:00:00.000Z');
    assert.equal(points[0].hour, '2025-04-30T11:00:00.000Z');
    assert.equal(points[71].filesIn, 3);
    assert.equal(points[24].hour, '2025-05-01T11:00:00.000Z');
    assert.equal(points[24].bytesIn, 100);
    assert.equal(points[50].filesIn, 0);
  });

  it('adds everything up', () => {
    assert.deepEqual(totals(fillHours(stats, now, 3)), {
      filesIn: 4,
      bytesIn: 3100,
      filesOut: 2,
      bytesOut: 2000,
    });
  });
});

describe('the chart range follows the data', () => {
  const now = Date.parse('2025-05-03T10:25:00Z');
  const at = (hour: string, filesIn = 1) => ({ hour, filesIn, bytesIn: 10, filesOut: 0, bytesOut: 0 });
  it('shows the last 24 hours while all traffic is in them', () => {
    assert.equal(chartDays([at('2025-05-03T10:00:00.000Z'), at('2025-05-02T11:00:00.000Z')], now, 3), 1);
    assert.equal(chartDays([], now, 3), 1);
  });
  it('shows all days once older traffic exists', () => {
    assert.equal(chartDays([at('2025-05-02T10:00:00.000Z')], now, 3), 3);
  });
});

describe('the last hour, minute by minute', () => {
  const now = Date.parse('2025-05-03T10:25:30Z');
  const minute = (at: string, filesIn = 1, filesOut = 0) => ({
    minute: at,
    filesIn,
    bytesIn: filesIn * 1000,
    filesOut,
    bytesOut: filesOut * 1000,
  });
  const hour = (at: string, filesIn = 1, filesOut = 0) => ({
    hour: at,
    filesIn,
    bytesIn: filesIn * 1000,
    filesOut,
    bytesOut: filesOut * 1000,
  });

  it('has 60 points ending with the current minute', () => {
    const points = fillMinutes(
      [minute('2025-05-03T10:20:00.000Z', 2), minute('2025-05-03T09:26:00.000Z')],
      now,
    );
    assert.equal(points.length, 60);
    assert.equal(points[59].time, Date.parse('2025-05-03T10:25:00Z'));
    assert.equal(points[0].time, Date.parse('2025-05-03T09:26:00Z'));
    assert.equal(points[0].filesIn, 1);
    assert.equal(points[54].filesIn, 2);
    assert.equal(totals(points).filesIn, 3);
  });

  it('shows the last hour while all traffic is in it', () => {
    const stats = {
      hours: [hour('2025-05-03T09:00:00.000Z', 1), hour('2025-05-03T10:00:00.000Z', 2, 1)],
      minutes: [
        minute('2025-05-03T09:40:00.000Z', 1),
        minute('2025-05-03T10:05:00.000Z', 2),
        minute('2025-05-03T10:06:00.000Z', 0, 1),
      ],
    };
    assert.equal(chartRange(stats, now, 7), 'hour');
  });

  it('shows the day once traffic is older than the hour, the week once older than the day', () => {
    const minutes = [minute('2025-05-03T10:05:00.000Z')];
    // 09:00 holds a file from before 09:26: the hour's minutes do not add up to the hours.
    assert.equal(chartRange({ hours: [hour('2025-05-03T09:00:00.000Z', 2)], minutes }, now, 7), 'day');
    assert.equal(
      chartRange(
        { hours: [hour('2025-04-30T08:00:00.000Z'), hour('2025-05-03T10:00:00.000Z')], minutes },
        now,
        7,
      ),
      'week',
    );
    // A delivery older than the hour counts too, not only what came in.
    assert.equal(chartRange({ hours: [hour('2025-05-03T08:00:00.000Z', 0, 1)], minutes: [] }, now, 7), 'day');
  });

  it('shows the day without any traffic', () => {
    assert.equal(chartRange({ hours: [], minutes: [] }, now, 7), 'day');
  });
});
