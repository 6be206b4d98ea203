// Issue 13: the job detail says which booked event was stamped into the picture (or that several
// ran at once and none was applied), from the upload's processing detail `eventStamp`.

import { Typography } from '@mui/material';
import { eventStampDetail } from '@photorelay/contract/externalcalendars';
import { useTranslation } from 'react-i18next';
import type { Job } from '../../api/jobs.ts';
import { formatDateTime } from '../../ui/format.ts';

function eventStampOf(job: Pick<Job, 'detail'>) {
  const detail = job.detail as { processing?: { eventStamp?: unknown } } | null;
  const parsed = eventStampDetail.safeParse(detail?.processing?.eventStamp);
  return parsed.success ? parsed.data : null;
}

export function JobEventStamp({ job }: { job: Pick<Job, 'detail'> }) {
  const { t, i18n } = useTranslation('externalCalendars');
  const stamp = eventStampOf(job);
  if (!stamp) return null;
  const text =
    'ambiguous' in stamp
      ? t('eventStamp.ambiguous', {
          count: stamp.ambiguous.length,
          summaries: stamp.ambiguous.map((e) => e.summary).join(', '),
        })
      : t('eventStamp.applied', {
          summary: stamp.summary,
          time: formatDateTime(stamp.startAt, i18n.language),
        });
  return (
    <Typography
      variant="caption"
      color="text.secondary"
      sx={{ display: 'block', mt: 0.5, overflowWrap: 'anywhere' }}
      data-testid="job-event-stamp"
    >
      {text}
    </Typography>
  );
}
