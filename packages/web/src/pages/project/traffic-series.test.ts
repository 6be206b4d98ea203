import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { chartDays, fillHours, totals } from './traffic-series.ts';

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
