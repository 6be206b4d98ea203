// Files or bytes in and out per minute of the last hour, or per hour of the last day or week, as
// the data needs (overview tab, issue 16).
import InsightsOutlinedIcon from '@mui/icons-material/InsightsOutlined';
import {
  Box,
  Card,
  CardContent,
  Skeleton,
  Stack,
  ToggleButton,
  ToggleButtonGroup,
  Typography,
} from '@mui/material';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { statsDays, useProjectStats } from '../../api/projects.ts';
import { formatNumber, formatSize } from '../../ui/format.ts';
import { type ChartRange, chartRange, fillHours, fillMinutes, totals } from './traffic-series.ts';

type Measure = 'files' | 'bytes';
const inColor = '#1f4fb3';
const outColor = '#f59e0b';

/** Labels on the time axis: every 10 minutes, every 3 hours, or at midnight. */
function isTick(range: ChartRange, time: number): boolean {
  const at = new Date(time);
  if (range === 'hour') return at.getMinutes() % 10 === 0;
  return range === 'day' ? at.getHours() % 3 === 0 && at.getMinutes() === 0 : at.getHours() === 0;
}

export function TrafficChart({ teamUuid, projectId }: { teamUuid: string; projectId: number }) {
  const { t, i18n } = useTranslation('projects');
  const language = i18n.resolvedLanguage ?? 'en';
  const stats = useProjectStats(teamUuid, projectId);
  const [measure, setMeasure] = useState<Measure>('files');
  // Recomputed with every answer (once a minute), so the window follows the clock.
  const { range, points } = useMemo(() => {
    const data = stats.data ?? { hours: [], minutes: [] };
    const now = Date.now();
    const range = chartRange(data, now, statsDays);
    const points =
      range === 'hour'
        ? fillMinutes(data.minutes, now)
        : fillHours(data.hours, now, range === 'day' ? 1 : statsDays);
    return { range, points };
  }, [stats.data]);
  const sum = totals(points);
  const inKey = measure === 'files' ? 'filesIn' : 'bytesIn';
  const outKey = measure === 'files' ? 'filesOut' : 'bytesOut';
  const format = (value: number) =>
    measure === 'files' ? formatNumber(value, language) : formatSize(value, language);
  // The tooltip names the unit: "3 files", "2.4 MB".
  const formatWithUnit = (value: number) =>
    measure === 'files'
      ? t('overview.filesCount', { count: value, formatted: formatNumber(value, language) })
      : format(value);
  const hourOnly = new Intl.DateTimeFormat(language === 'de' ? 'de-DE' : 'en-GB', {
    hour: '2-digit',
    minute: '2-digit',
  });
  const dayFormat = new Intl.DateTimeFormat(language === 'de' ? 'de-DE' : 'en-GB', {
    weekday: 'short',
    day: '2-digit',
  });
  const titles: Record<ChartRange, string> = {
    hour: t('overview.chartTitleHour'),
    day: t('overview.chartTitleDay'),
    week: t('overview.chartTitle', { days: statsDays }),
  };
  const hourFormat = new Intl.DateTimeFormat(language === 'de' ? 'de-DE' : 'en-GB', {
    weekday: 'short',
    day: '2-digit',
    month: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
  });

  return (
    <Card sx={{ height: '100%' }} data-testid="traffic-chart">
      <CardContent sx={{ p: 2.5, height: '100%', display: 'flex', flexDirection: 'column' }}>
        <Stack direction="row" spacing={1.5} sx={{ alignItems: 'flex-start', mb: 1.5 }}>
          <InsightsOutlinedIcon color="primary" sx={{ mt: 0.25 }} />
          <Box sx={{ flex: 1, minWidth: 0 }}>
            <Typography variant="h6" component="h2">
              {titles[range]}
            </Typography>
            <Typography variant="body2" color="text.secondary">
              {measure === 'files'
                ? t('overview.chartFiles', {
                    in: formatNumber(sum.filesIn, language),
                    out: formatNumber(sum.filesOut, language),
                  })
                : t('overview.chartBytes', {
                    in: formatSize(sum.bytesIn, language),
                    out: formatSize(sum.bytesOut, language),
                  })}
            </Typography>
          </Box>
          <ToggleButtonGroup
            size="small"
            exclusive
            value={measure}
            onChange={(_event, value: Measure | null) => value && setMeasure(value)}
            aria-label={t('overview.chartMeasure')}
          >
            <ToggleButton value="files" data-testid="chart-files" sx={{ px: 1.5, py: 0.25 }}>
              {t('overview.files')}
            </ToggleButton>
            <ToggleButton value="bytes" data-testid="chart-bytes" sx={{ px: 1.5, py: 0.25 }}>
              {t('overview.bytes')}
            </ToggleButton>
          </ToggleButtonGroup>
        </Stack>
        <Box sx={{ flex: 1, minHeight: 260 }}>
          {stats.isPending ? (
            <Skeleton variant="rounded" height={260} />
          ) : (
            <ResponsiveContainer width="100%" height={260}>
              <BarChart
                data={points}
                margin={{ top: 8, right: 8, bottom: 0, left: 0 }}
                barGap={0}
                barCategoryGap="12%"
              >
                <CartesianGrid vertical={false} stroke="#e8ecf3" />
                <XAxis
                  dataKey="time"
                  tickFormatter={(time: number) => (range === 'week' ? dayFormat : hourOnly).format(time)}
                  ticks={points.filter((point) => isTick(range, point.time)).map((point) => point.time)}
                  tick={{ fontSize: 12, fill: '#5b6577' }}
                  axisLine={{ stroke: '#d5dbe5' }}
                  tickLine={false}
                />
                <YAxis
                  allowDecimals={false}
                  tickFormatter={(value: number) => format(value)}
                  tick={{ fontSize: 12, fill: '#5b6577' }}
                  axisLine={false}
                  tickLine={false}
                  width={measure === 'files' ? 36 : 72}
                />
                <Tooltip
                  cursor={{ fill: 'rgba(31,79,179,0.06)' }}
                  labelFormatter={(time) => (range === 'hour' ? hourOnly : hourFormat).format(Number(time))}
                  formatter={(value, name) => [formatWithUnit(Number(value)), name]}
                />
                <Legend iconType="circle" iconSize={8} wrapperStyle={{ fontSize: 13 }} />
                <Bar
                  dataKey={inKey}
                  name={t('overview.in')}
                  fill={inColor}
                  radius={[2, 2, 0, 0]}
                  isAnimationActive={false}
                />
                <Bar
                  dataKey={outKey}
                  name={t('overview.out')}
                  fill={outColor}
                  radius={[2, 2, 0, 0]}
                  isAnimationActive={false}
                />
              </BarChart>
            </ResponsiveContainer>
          )}
        </Box>
      </CardContent>
    </Card>
  );
}
