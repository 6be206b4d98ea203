import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  agendaCanGrow,
  agendaRange,
  dialogDateToDay,
  inRange,
  monthRange,
  monthWeeks,
  rangeDays,
  shiftMonth,
} from './calendar-range.ts';

describe('calendar range (issue 27 item 1)', () => {
  it('lists the agenda from the given day across months, and a month from its first day', () => {
    assert.deepEqual(agendaRange('2026-11-28', 3), { start: '2026-11-28', end: '2027-02-28' });
    // An event seven weeks ahead is inside the first agenda.
    assert.ok(inRange('2027-01-16', agendaRange('2026-11-28', 3)));
    assert.deepEqual(monthRange('2026-12'), { start: '2026-12-01', end: '2027-01-01' });
    assert.equal(shiftMonth('2026-12', 1), '2027-01');
    assert.equal(shiftMonth('2026-01', -1), '2025-12');
  });

  it('never asks for more than the server lists, nor past the last day of the spec', () => {
    const long = agendaRange('2026-01-10', 24);
    assert.deepEqual(long, { start: '2026-01-10', end: '2027-02-14' });
    assert.equal(agendaCanGrow(long), false);
    assert.deepEqual(agendaRange('2029-11-15', 3), { start: '2029-11-15', end: '2030-01-01' });
    assert.equal(agendaCanGrow(agendaRange('2029-11-15', 3)), false);
    assert.equal(agendaCanGrow(agendaRange('2026-11-28', 3)), true);
  });

  it('says the first and last day shown, with the year only when needed', () => {
    assert.deepEqual(rangeDays({ start: '2026-11-28', end: '2026-12-28' }, '2026-11-28'), {
      from: '28.11.',
      to: '27.12.',
    });
    assert.deepEqual(rangeDays({ start: '2026-11-28', end: '2027-02-28' }, '2026-11-28'), {
      from: '28.11.2026',
      to: '27.02.2027',
    });
  });

  it('fills whole weeks, Monday first, for the month grid', () => {
    const weeks = monthWeeks('2026-12');
    assert.equal(weeks[0]?.[0], '2026-11-30');
    assert.equal(weeks.at(-1)?.at(-1), '2027-01-03');
    assert.ok(weeks.every((week) => week.length === 7));
    assert.equal(weeks.length, 5);
  });

  it('reads the dialog date', () => {
    assert.equal(dialogDateToDay('05.01.2027'), '2027-01-05');
    assert.equal(dialogDateToDay('31.02.2027'), null);
  });
});
