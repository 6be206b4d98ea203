// Files or bytes in and out per hour over the last 3 days (overview tab).
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
import { fillHours, totals } from './traffic-series.ts';

type Measure = 'files' | 'bytes';
const inColor = '#1f4fb3';
const outColor = '#f59e0b';

export function TrafficChart({ teamUuid, projectId }: { teamUuid: string; projectId: number }) {
  const { t, i18n } = useTranslation('projects');
  const language = i18n.resolvedLanguage ?? 'en';
  const stats = useProjectStats(teamUuid, projectId);
  const [measure, setMeasure] = useState<Measure>('files');
  // Recomputed with every answer (once a minute), so the window follows the clock.
  const points = useMemo(() => fillHours(stats.data ?? [], Date.now(), statsDays), [stats.data]);
  const sum = totals(points);
  const inKey = measure === 'files' ? 'filesIn' : 'bytesIn';
  const outKey = measure === 'files' ? 'filesOut' : 'bytesOut';
  const format = (value: number) =>
    measure === 'files' ? formatNumber(value, language) : formatSize(value, language);
  const dayFormat = new Intl.DateTimeFormat(language === 'de' ? 'de-DE' : 'en-GB', {
    weekday: 'short',
    day: '2-digit',
  });
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
              {t('overview.chartTitle', { days: statsDays })}
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
                  tickFormatter={(time: number) => dayFormat.format(time)}
                  ticks={points
                    .filter((point) => new Date(point.time).getHours() === 0)
                    .map((point) => point.time)}
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
                  labelFormatter={(time) => hourFormat.format(Number(time))}
                  formatter={(value, name) => [format(Number(value)), name]}
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
