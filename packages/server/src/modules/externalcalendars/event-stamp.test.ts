import assert from 'node:assert/strict';
import { test } from 'node:test';
import { captureInstant, chooseEvent, fillValues } from './event-stamp.ts';

test('the capture time: with the camera’s offset, else the camera’s clock in the team’s zone', () => {
  const parts = { year: 2026, month: 7, day: 4, hour: 18, minute: 5, second: 9 };
  assert.equal(
    captureInstant({ ...parts, zone: '+02:00' }, 'America/New_York')?.toISOString(),
    '2026-07-04T16:05:09.000Z',
  );
  assert.equal(
    captureInstant({ ...parts, zone: '-05:30' }, 'Europe/Berlin')?.toISOString(),
    '2026-07-04T23:35:09.000Z',
  );
  assert.equal(
    captureInstant({ ...parts, zone: 'Z' }, 'Europe/Berlin')?.toISOString(),
    '2026-07-04T18:05:09.000Z',
  );
  assert.equal(captureInstant(parts, 'Europe/Berlin')?.toISOString(), '2026-07-04T16:05:09.000Z');
  assert.equal(captureInstant(parts, 'America/New_York')?.toISOString(), '2026-07-04T22:05:09.000Z');
  assert.equal(
    captureInstant({ year: 2026, month: 7, day: 4 }, 'Europe/Berlin'),
    undefined,
    'no time of day',
  );
  assert.equal(captureInstant(undefined, 'Europe/Berlin'), undefined);
});

test('one booked event is applied; of several, the one the camera’s photographer alone is booked on', () => {
  const a = { entryId: 1, photographers: ['Jana Roth', 'Ole Berg'] };
  const b = { entryId: 2, photographers: ['Ole Berg'] };
  assert.equal(chooseEvent([], 'Jana Roth'), undefined);
  assert.deepEqual(chooseEvent([b], undefined), { chosen: b }, 'one event: whoever shot it');
  assert.deepEqual(chooseEvent([a, b], ' jana roth '), { chosen: a });
  assert.deepEqual(chooseEvent([a, b], 'Ole Berg'), { ambiguous: [a, b] }, 'booked on both');
  assert.deepEqual(chooseEvent([a, b], undefined), { ambiguous: [a, b] });
  assert.deepEqual(chooseEvent([a, b], 'Someone Else'), { ambiguous: [a, b] });
});

test('the event fills what the template leaves off and the picture leaves empty', () => {
  const event = [
    { propertytypeids: 'headline', value: 'A - B' },
    { propertytypeids: 'eventName', value: 'Liga: A - B' },
    { propertytypeids: 'cityName', value: 'Köln' },
    { propertytypeids: 'locationsShown,city', value: 'Köln', position: 0 },
    { propertytypeids: 'dateCreated', value: '2026-07-04' },
  ];
  const fill = fillValues(event, { headline: 'replace', eventName: 'off' }, [
    { propertytypeids: 'cityName', value: 'Bonn' },
    { propertytypeids: 'countryName', value: ' ' },
  ]);
  assert.deepEqual(fill.properties, ['eventName', 'locationsShown']);
  assert.deepEqual(
    fill.values.map((v) => v.propertytypeids),
    ['eventName', 'locationsShown,city'],
  );
});
