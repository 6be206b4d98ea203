// The overview chart shows every hour of the last days, also the quiet ones the server leaves out.

export type HourlyStat = {
  hour: string;
  filesIn: number;
  bytesIn: number;
  filesOut: number;
  bytesOut: number;
};
export type HourPoint = HourlyStat & { time: number };

const hourMs = 3_600_000;

/** One point per hour from `days` days ago up to the current hour, oldest first. */
export function fillHours(stats: readonly HourlyStat[], now: number, days: number): HourPoint[] {
  const byHour = new Map<number, HourlyStat>();
  for (const stat of stats) {
    const time = Math.floor(Date.parse(stat.hour) / hourMs) * hourMs;
    if (Number.isFinite(time)) byHour.set(time, stat);
  }
  const last = Math.floor(now / hourMs) * hourMs;
  const count = days * 24;
  const points: HourPoint[] = [];
  for (let index = count - 1; index >= 0; index--) {
    const time = last - index * hourMs;
    const stat = byHour.get(time);
    points.push({
      time,
      hour: new Date(time).toISOString(),
      filesIn: stat?.filesIn ?? 0,
      bytesIn: stat?.bytesIn ?? 0,
      filesOut: stat?.filesOut ?? 0,
      bytesOut: stat?.bytesOut ?? 0,
    });
  }
  return points;
}

/** Totals of a series, e.g. for the chart's legend. */
export function totals(points: readonly HourlyStat[]) {
  return points.reduce(
    (sum, point) => ({
      filesIn: sum.filesIn + point.filesIn,
      bytesIn: sum.bytesIn + point.bytesIn,
      filesOut: sum.filesOut + point.filesOut,
      bytesOut: sum.bytesOut + point.bytesOut,
    }),
    { filesIn: 0, bytesIn: 0, filesOut: 0, bytesOut: 0 },
  );
}

/**
 * How many days the chart shows, chosen from the data (issue 16): the last 24 hours while all
 * traffic falls into them (today is not squeezed into a sliver), else the whole range.
 */
export function chartDays(stats: readonly HourlyStat[], now: number, maxDays: number): number {
  const dayAgo = Math.floor(now / hourMs) * hourMs - 23 * hourMs;
  const older = stats.some(
    (stat) =>
      Date.parse(stat.hour) < dayAgo && stat.filesIn + stat.filesOut + stat.bytesIn + stat.bytesOut > 0,
  );
  return older ? maxDays : 1;
}
