import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  formatCompactDateTime,
  formatDateTime,
  formatDuration,
  formatSize,
  formatSpeed,
  formatTimeUntil,
} from './format.ts';

describe('sizes (spec §9: B below 1024, otherwise KB)', () => {
  it('shows bytes below 1024', () => {
    assert.equal(formatSize(0, 'en'), '0 B');
    assert.equal(formatSize(1023, 'en'), '1,023 B');
  });

  it('shows KB from 1024 on, with grouping', () => {
    assert.equal(formatSize(1024, 'en'), '1 KB');
    assert.equal(formatSize(1536, 'en'), '1.5 KB');
    assert.equal(formatSize(99_999, 'en'), '97.7 KB');
    assert.equal(formatSize(5 * 1024 * 1024, 'en'), '5,120 KB');
    assert.equal(formatSize(1536, 'de'), '1,5 KB');
    assert.equal(formatSize(5 * 1024 * 1024, 'de'), '5.120 KB');
  });

  it('has a dash for impossible values', () => {
    assert.equal(formatSize(-1, 'en'), '–');
    assert.equal(formatSize(Number.NaN, 'en'), '–');
  });
});

describe('upload speed and duration', () => {
  it('is per second', () => {
    assert.equal(formatSpeed(2048, 1000, 'en'), '2 KB/s');
    assert.equal(formatSpeed(500, 1000, 'en'), '500 B/s');
    assert.equal(formatSpeed(512, 500, 'en'), '1 KB/s');
    assert.equal(formatSpeed(100, 0, 'en'), '97.7 KB/s');
    assert.equal(formatSpeed(100, null, 'en'), null);
  });

  it('formats durations', () => {
    assert.equal(formatDuration(850, 'en'), '850 ms');
    assert.equal(formatDuration(12_340, 'en'), '12.3 s');
    assert.equal(formatDuration(125_000, 'en'), '2:05 min');
    assert.equal(formatDuration(null, 'en'), null);
  });
});

describe('times', () => {
  it('formats dates as DD.MM.YYYY in German', () => {
    const text = formatDateTime(new Date(2025, 10, 3, 9, 5), 'de');
    assert.match(text, /^03\.11\.2025,? 09:05$/);
  });

  it('is compact in tables: the time today, else day and time', () => {
    const now = new Date(2025, 10, 3, 18, 0).getTime();
    assert.equal(formatCompactDateTime(new Date(2025, 10, 3, 9, 5, 7), now, 'de'), '09:05:07');
    assert.match(formatCompactDateTime(new Date(2025, 10, 1, 9, 5), now, 'de'), /^01\.11\.,? 09:05$/);
  });

  it('tells the time until a moment', () => {
    const now = Date.parse('2025-01-01T10:00:00Z');
    assert.equal(formatTimeUntil('2025-01-01T10:00:12Z', now, 'en'), 'in 12 seconds');
    assert.equal(formatTimeUntil('2025-01-01T10:05:00Z', now, 'en'), 'in 5 minutes');
    assert.equal(formatTimeUntil('2025-01-01T09:59:00Z', now, 'en'), 'now');
    assert.equal(formatTimeUntil('2025-01-01T10:00:12Z', now, 'de'), 'in 12 Sekunden');
  });
});
