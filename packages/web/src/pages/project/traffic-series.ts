// The overview chart shows every hour (or minute) of its range, also the quiet ones the server
// leaves out, and chooses the range from the data (issue 16): the last hour, day or week.

export type TrafficCounts = { filesIn: number; bytesIn: number; filesOut: number; bytesOut: number };
export type HourlyStat = TrafficCounts & { hour: string };
export type MinuteStat = TrafficCounts & { minute: string };
export type TrafficPoint = TrafficCounts & { time: number };
export type HourPoint = HourlyStat & { time: number };
export type ChartRange = 'hour' | 'day' | 'week';

export const minuteMs = 60_000;
const hourMs = 3_600_000;
const noTraffic: TrafficCounts = { filesIn: 0, bytesIn: 0, filesOut: 0, bytesOut: 0 };

/** `count` points `stepMs` apart ending with the step `now` is in, oldest first. */
function fillSteps(stats: ReadonlyMap<number, TrafficCounts>, now: number, stepMs: number, count: number) {
  const last = Math.floor(now / stepMs) * stepMs;
  const points: TrafficPoint[] = [];
  for (let index = count - 1; index >= 0; index--) {
    const time = last - index * stepMs;
    const { filesIn, bytesIn, filesOut, bytesOut } = stats.get(time) ?? noTraffic;
    points.push({ time, filesIn, bytesIn, filesOut, bytesOut });
  }
  return points;
}

function byStep<T extends TrafficCounts>(stats: readonly T[], at: (stat: T) => string, stepMs: number) {
  const map = new Map<number, TrafficCounts>();
  for (const stat of stats) {
    const time = Math.floor(Date.parse(at(stat)) / stepMs) * stepMs;
    if (Number.isFinite(time)) map.set(time, stat);
  }
  return map;
}

/** One point per hour from `days` days ago up to the current hour, oldest first. */
export function fillHours(stats: readonly HourlyStat[], now: number, days: number): HourPoint[] {
  return fillSteps(
    byStep(stats, (stat) => stat.hour, hourMs),
    now,
    hourMs,
    days * 24,
  ).map((point) => ({ ...point, hour: new Date(point.time).toISOString() }));
}

/** One point per minute of the last hour, the current minute last. */
export function fillMinutes(stats: readonly MinuteStat[], now: number): TrafficPoint[] {
  return fillSteps(
    byStep(stats, (stat) => stat.minute, minuteMs),
    now,
    minuteMs,
    60,
  );
}

/** Totals of a series, e.g. for the chart's legend. */
export function totals(points: readonly TrafficCounts[]): TrafficCounts {
  return points.reduce(
    (sum, point) => ({
      filesIn: sum.filesIn + point.filesIn,
      bytesIn: sum.bytesIn + point.bytesIn,
      filesOut: sum.filesOut + point.filesOut,
      bytesOut: sum.bytesOut + point.bytesOut,
    }),
    noTraffic,
  );
}

const anyTraffic = (counts: TrafficCounts) =>
  counts.filesIn + counts.filesOut + counts.bytesIn + counts.bytesOut > 0;

/**
 * How many days the hourly chart shows, chosen from the data (issue 16): the last 24 hours while
 * all traffic falls into them (today is not squeezed into a sliver), else the whole range.
 */
export function chartDays(stats: readonly HourlyStat[], now: number, maxDays: number): number {
  const dayAgo = Math.floor(now / hourMs) * hourMs - 23 * hourMs;
  const older = stats.some((stat) => Date.parse(stat.hour) < dayAgo && anyTraffic(stat));
  return older ? maxDays : 1;
}

/**
 * The chart's range (issue 16): the last hour, minute by minute, while all traffic of the week
 * is in it (the hourly and the minute counts come from one answer, so equal totals say so);
 * else the last day while all traffic is in it; else the week.
 */
export function chartRange(
  stats: { hours: readonly HourlyStat[]; minutes: readonly MinuteStat[] },
  now: number,
  weekDays: number,
): ChartRange {
  const all = totals(stats.hours);
  const lastHour = totals(stats.minutes);
  if (anyTraffic(all) && (Object.keys(all) as (keyof TrafficCounts)[]).every((k) => all[k] === lastHour[k]))
    return 'hour';
  return chartDays(stats.hours, now, weekDays) === 1 ? 'day' : 'week';
}
