// Issue 28: an FTP server's health where people look at the server: a status on the list and
// the page (last delivery and its result, pictures waiting, the last error in plain words).
import { Box, Chip, Stack, Typography } from '@mui/material';
import type { FtpServerHealth } from '@photorelay/contract/ftpservers';
import { useTranslation } from 'react-i18next';
import { FailureCauseLine } from '../../ui/failure-cause.tsx';
import { formatCompactDateTime } from '../../ui/format.ts';

export function HealthChip({ health }: { health: FtpServerHealth | undefined }) {
  const { t } = useTranslation('jobLog');
  if (!health) return null;
  const state = health.failing ? 'failing' : health.lastResult ? 'working' : 'unused';
  return (
    <Chip
      size="small"
      variant={state === 'failing' ? 'filled' : 'outlined'}
      color={state === 'failing' ? 'error' : state === 'working' ? 'success' : 'default'}
      label={t(`destinationHealth.${state}`)}
      data-testid="ftpserver-health"
      data-state={state}
      sx={{ fontWeight: 600 }}
    />
  );
}

/** The status chip with the last delivery, what waits and why, for the list and the page. */
export function HealthSummary({ health }: { health: FtpServerHealth | undefined }) {
  const { t, i18n } = useTranslation('jobLog');
  const language = i18n.resolvedLanguage ?? 'en';
  if (!health) return null;
  return (
    <Stack spacing={0.5} sx={{ minWidth: 0 }}>
      <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 0.75, alignItems: 'center' }}>
        <HealthChip health={health} />
        {health.waiting > 0 && (
          <Typography variant="body2" color={health.failing ? 'error' : 'text.secondary'}>
            {t('destinationHealth.waiting', { count: health.waiting })}
          </Typography>
        )}
      </Stack>
      {health.lastDeliveryAt && health.lastResult && (
        <Typography variant="caption" color="text.secondary">
          {t('destinationHealth.lastDelivery', {
            time: formatCompactDateTime(health.lastDeliveryAt, Date.now(), language),
            result: t(`destinationHealth.${health.lastResult === 'succeeded' ? 'delivered' : 'failed'}`),
          })}
        </Typography>
      )}
      {health.lastCause && (
        <Box>
          <FailureCauseLine cause={health.lastCause} testId="ftpserver-health-error" />
        </Box>
      )}
    </Stack>
  );
}
