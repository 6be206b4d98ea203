import ICAL from 'ical.js';

// What a feed's recurrence rules may cost to expand (issue 25): a step budget that counts
// ical.js's inner steps, and rules refused because they can never match. parse.ts applies both.

/** Steps a feed may take by default: a daily series over 60 years is 22,000; 60,000 plain events 60,000. */
export const defaultMaxSteps = 1_000_000;

/**
 * ical.js's `RecurIterator.next()` loops inside one call until the rule's parts match, forever
 * for a rule that never matches (FREQ=DAILY;BYMONTH=2;BYMONTHDAY=31). Every turn of that loop
 * asks `check_contracting_rules`, so counting there counts every inner step against the budget
 * of the expansion running now (set around each `next()` call; JavaScript runs one at a time).
 */
export const stepBudget: { left: number } = { left: Number.POSITIVE_INFINITY };
type IteratorProto = { check_contracting_rules: () => boolean };
const iteratorProto = ICAL.RecurIterator.prototype as unknown as IteratorProto;
const checkRules = iteratorProto.check_contracting_rules;
iteratorProto.check_contracting_rules = function (this: IteratorProto) {
  if (--stepBudget.left < 0) throw new StepBudgetExceeded();
  return checkRules.call(this);
};
export class StepBudgetExceeded extends Error {}

const daysInMonth = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const allMonths = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12];

/** Why a series' rule can never produce an occurrence (a month without that day), or null. */
export function neverMatchingRule(rule: ICAL.Recur): string | null {
  const parts = rule.parts as { BYMONTH?: number[]; BYMONTHDAY?: number[] };
  const monthDays = parts.BYMONTHDAY;
  if (!monthDays?.length) return null;
  const months = parts.BYMONTH?.length ? parts.BYMONTH : allMonths;
  const exists = months.some((m) => monthDays.some((d) => Math.abs(d) <= (daysInMonth[m - 1] ?? 0)));
  if (exists) return null;
  return `BYMONTH=${months.join(',')} has no day ${monthDays.join(',')}`;
}
