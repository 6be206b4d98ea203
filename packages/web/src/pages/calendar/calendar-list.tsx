// The calendars shown in the table (spec §2): the opened one and, for owners and operators, the
// external ones, each with a show/hide checkbox; external ones can be refreshed and deleted.
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutlined';
import RefreshIcon from '@mui/icons-material/Refresh';
import { Checkbox, Chip, FormControlLabel, IconButton, Stack, Tooltip, Typography } from '@mui/material';
import { externalCalendarCommandDetail } from '@photorelay/contract/externalcalendars';
import { format, isToday } from 'date-fns';
import type { TFunction } from 'i18next';
import { useSnackbar } from 'notistack';
import { memo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type Calendar, useDeleteCalendar, useRefreshCalendar } from '../../api/calendar.ts';
import { ConfirmRemoval } from '../../ui/confirm-dialog.tsx';

type Props = {
  teamUuid: string;
  calendars: readonly Calendar[];
  hidden: ReadonlySet<number>;
  onToggle: (id: number, shown: boolean) => void;
  canManage: boolean;
};

/** What a refresh changed and when it ran (issue 27 item 10), not only 'Calendar refreshed'. */
function refreshMessage(t: TFunction<'calendar'>, detail: unknown) {
  const parsed = externalCalendarCommandDetail.safeParse(detail);
  const time = format(new Date(), 'HH:mm');
  if (!parsed.success) return t('calendars.refreshed');
  const { notModified, inserted, updated, removed } = parsed.data;
  return notModified || inserted + updated + removed === 0
    ? t('calendars.refreshedUnchanged', { time })
    : t('calendars.refreshedChanges', { time, inserted, updated, removed });
}

/** The list's line under an external calendar: what its last refresh changed and when it ran. */
function lastRun(t: TFunction<'calendar'>, calendar: Calendar) {
  if (!calendar.refreshedAt)
    return calendar.lastError ? t('calendars.lastFailed', { error: calendar.lastError }) : '';
  const ran = new Date(calendar.refreshedAt);
  const time = format(ran, isToday(ran) ? 'HH:mm' : 'dd.MM. HH:mm');
  const changes = calendar.lastChanges;
  const run = changes ? t('calendars.lastRun', { time, ...changes }) : t('calendars.lastRunAt', { time });
  return calendar.lastError ? `${run} · ${t('calendars.lastFailed', { error: calendar.lastError })}` : run;
}

/** Memoised like the date picker: the listing's answer does not change the list. */
export const CalendarList = memo(function CalendarList({
  teamUuid,
  calendars,
  hidden,
  onToggle,
  canManage,
}: Props) {
  const { t } = useTranslation('calendar');
  const { enqueueSnackbar } = useSnackbar();
  const remove = useDeleteCalendar(teamUuid);
  const refresh = useRefreshCalendar(teamUuid);
  const [removing, setRemoving] = useState<Calendar | null>(null);
  return (
    <>
      <Stack
        direction="row"
        data-testid="calendar-list"
        sx={{ flexWrap: 'wrap', alignItems: 'center', columnGap: 2, rowGap: 0.5 }}
      >
        {calendars.map((calendar) => {
          const external = calendar.type !== 'default';
          return (
            <Stack
              key={calendar.dbcalendarid}
              direction="row"
              sx={{ alignItems: 'center', flexWrap: 'wrap', minWidth: 0 }}
              data-testid={`calendar-item-${calendar.dbcalendarid}`}
            >
              <FormControlLabel
                sx={{ mr: 0.5 }}
                label={calendar.name}
                control={
                  <Checkbox
                    size="small"
                    checked={!hidden.has(calendar.dbcalendarid)}
                    onChange={(event) => onToggle(calendar.dbcalendarid, event.target.checked)}
                  />
                }
              />
              {external && (
                <Chip size="small" variant="outlined" label={t('calendars.external')} sx={{ mr: 0.5 }} />
              )}
              {external && canManage && (
                <>
                  <Tooltip title={t('calendars.refresh')}>
                    <span>
                      <IconButton
                        size="small"
                        aria-label={t('calendars.refresh')}
                        data-testid="calendar-refresh"
                        disabled={refresh.isPending}
                        onClick={() =>
                          refresh.mutate(
                            { calendarRefName: calendar.refname ?? '' },
                            {
                              onSuccess: (detail) =>
                                enqueueSnackbar(refreshMessage(t, detail), { variant: 'success' }),
                            },
                          )
                        }
                      >
                        <RefreshIcon fontSize="small" />
                      </IconButton>
                    </span>
                  </Tooltip>
                  <Tooltip title={t('calendars.delete')}>
                    <IconButton
                      size="small"
                      aria-label={t('calendars.delete')}
                      onClick={() => setRemoving(calendar)}
                    >
                      <DeleteOutlineIcon fontSize="small" />
                    </IconButton>
                  </Tooltip>
                  <Typography
                    variant="caption"
                    color={calendar.lastError ? 'error' : 'text.secondary'}
                    sx={{ ml: 0.5 }}
                    data-testid="calendar-last-run"
                  >
                    {lastRun(t, calendar)}
                  </Typography>
                </>
              )}
            </Stack>
          );
        })}
      </Stack>
      <ConfirmRemoval
        item={removing}
        title={t('calendars.deleteTitle')}
        message={removing ? t('calendars.deleteMessage', { name: removing.name }) : ''}
        confirmLabel={t('remove.confirm')}
        cancelLabel={t('remove.cancel')}
        remove={(calendar, options) => remove.mutate(calendar.dbcalendarid, options)}
        removing={remove.isPending}
        removed={() => t('calendars.deleted')}
        onClose={() => setRemoving(null)}
        testId="calendar-remove-dialog"
      />
    </>
  );
});
