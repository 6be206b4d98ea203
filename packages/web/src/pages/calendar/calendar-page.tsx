// /calendar?id (spec §2 'Calendar page'): the team's events from a start date, grouped by day, with
// bookings, flags and the row actions; photographers also see their own bookings.
import AddIcon from '@mui/icons-material/Add';
import CalendarMonthOutlinedIcon from '@mui/icons-material/CalendarMonthOutlined';
import PublicOutlinedIcon from '@mui/icons-material/PublicOutlined';
import { Box, Button, Card, Stack } from '@mui/material';
import { limits } from '@photorelay/contract/limits';
import { useSnackbar } from 'notistack';
import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import {
  type CalendarEntry,
  useCalendars,
  useCopyEntry,
  useDeleteEntry,
  useEntries,
  useEntryDecision,
} from '../../api/calendar.ts';
import { type FolderNode, useFolderTree } from '../../api/folders.ts';
import { ConfirmDialog, ConfirmRemoval } from '../../ui/confirm-dialog.tsx';
import { NotFoundCard, PageContainer, PageHeader, PageSpinner } from '../../ui/page.tsx';
import { useCurrentTeam, useSession } from '../../ui/session.ts';
import { CalendarList } from './calendar-list.tsx';
import { defaultTimeZone } from './calendar-time.ts';
import { EntriesTable } from './entries-table.tsx';
import type { RowAction } from './entry-row.tsx';
import { EventDialog, type EventDialogMode } from './event-dialog.tsx';
import { AddExternalCalendarButton } from './external-calendars.tsx';
import { InviteDialog } from './invite-dialog.tsx';
import { MyBookings } from './my-bookings.tsx';
import { clampDay, StartDatePicker } from './start-date-picker.tsx';
import { TimeZoneDialog } from './time-zone-dialog.tsx';

function firstCalendarId(nodes: readonly FolderNode[]): number {
  for (const node of nodes) {
    if (node.type === 'calendar') return node.id;
    const inside = firstCalendarId(node.children);
    if (inside) return inside;
  }
  return 0;
}

type Decision = { entry: CalendarEntry; decision: 'confirm' | 'cancel' };

export function CalendarPage() {
  const { t } = useTranslation('calendar');
  const { enqueueSnackbar } = useSnackbar();
  const team = useCurrentTeam();
  const teamUuid = team.teamid;
  const session = useSession();
  const [params] = useSearchParams();
  const tree = useFolderTree(teamUuid);
  // Without an id (e.g. from the invitation page) the first calendar of the tree opens.
  const calendarId = Number(params.get('id') ?? '') || firstCalendarId(tree.data ?? []);
  const rolesKnown = session.status === 'loggedIn' && session.groups !== undefined;
  const admin = session.status === 'loggedIn' && (session.isOwner || session.isOperator);
  const planner = rolesKnown && session.status === 'loggedIn' && !session.isPhotographer;

  const list = useCalendars(teamUuid);
  // `start` (yyyy-mm-dd) opens another day than the spec's default start (links, the benchmark).
  const [startDate, setStartDate] = useState<string>(() => {
    const start = params.get('start') ?? '';
    return /^\d{4}-\d{2}-\d{2}$/.test(start) ? clampDay(start) : limits.calendarDefaultStart;
  });
  const [hidden, setHidden] = useState<ReadonlySet<number>>(new Set());
  const onToggle = useCallback(
    (id: number, shown: boolean) =>
      setHidden((current) => {
        const next = new Set(current);
        if (shown) next.delete(id);
        else next.add(id);
        return next;
      }),
    [],
  );
  // The opened calendar first, then the others the caller may see (spec §2).
  const calendars = useMemo(() => {
    const all = list.data?.calendars ?? [];
    const opened = all.filter((item) => item.dbcalendarid === calendarId);
    return [...opened, ...all.filter((item) => item.dbcalendarid !== calendarId)];
  }, [list.data, calendarId]);
  const calendar = calendars[0]?.dbcalendarid === calendarId ? calendars[0] : undefined;
  const defaultCalendar = calendars.find((item) => item.type === 'default');
  const shownIds = useMemo(
    () => calendars.map((item) => item.dbcalendarid).filter((id) => !hidden.has(id)),
    [calendars, hidden],
  );
  // The table's page: the server answers 200 entries from `offset` (another day or calendar: page 1).
  const [paging, setPaging] = useState({ key: '', offset: 0 });
  const pagingKey = `${startDate}/${shownIds.join(',')}`;
  const offset = paging.key === pagingKey ? paging.offset : 0;
  const entries = useEntries(teamUuid, shownIds, startDate, offset);
  const onOffset = useCallback((next: number) => setPaging({ key: pagingKey, offset: next }), [pagingKey]);
  const zone = entries.data?.timeZone ?? list.data?.timeZone ?? defaultTimeZone;

  const [eventMode, setEventMode] = useState<EventDialogMode | null>(null);
  const [inviting, setInviting] = useState<CalendarEntry | null>(null);
  const [decision, setDecision] = useState<Decision | null>(null);
  const [removing, setRemoving] = useState<CalendarEntry | null>(null);
  const [zoneOpen, setZoneOpen] = useState(false);
  const decide = useEntryDecision(teamUuid);
  const remove = useDeleteEntry(teamUuid);
  const copy = useCopyEntry(teamUuid);

  const onAction = useCallback(
    (action: RowAction, entry: CalendarEntry) => {
      switch (action) {
        case 'edit':
          setEventMode(
            planner && entry.calendartype === 'default' ? { kind: 'edit', entry } : { kind: 'view', entry },
          );
          return;
        case 'create':
          copy.mutate(entry.dbcalendarentryid, {
            onSuccess: () => enqueueSnackbar(t('actions.created'), { variant: 'success' }),
          });
          return;
        case 'copy':
          setEventMode({ kind: 'copy', entry });
          return;
        case 'invite':
          setInviting(entry);
          return;
        case 'delete':
          setRemoving(entry);
          return;
        case 'confirm':
        case 'cancel':
          setDecision({ entry, decision: action });
          return;
      }
    },
    [planner, copy.mutate, enqueueSnackbar, t],
  );

  if (list.isError || (list.data && calendarId > 0 && !calendar)) {
    return (
      <PageContainer>
        <PageHeader title={t('title')} icon={<CalendarMonthOutlinedIcon />} />
        <NotFoundCard testId="calendar-not-found" />
      </PageContainer>
    );
  }
  if (!rolesKnown) return <PageSpinner />;

  return (
    <PageContainer maxWidth="xl">
      <Box data-testid="calendar-page" data-zone={zone}>
        <PageHeader
          title={calendar?.name ?? t('title')}
          subtitle={t('subtitle')}
          icon={<CalendarMonthOutlinedIcon />}
          actions={
            <>
              <StartDatePicker value={startDate} zone={zone} onChange={setStartDate} />
              {admin && (
                <Button
                  color="inherit"
                  startIcon={<PublicOutlinedIcon />}
                  onClick={() => setZoneOpen(true)}
                  data-testid="calendar-time-zone"
                  sx={{ whiteSpace: 'nowrap' }}
                >
                  {zone}
                </Button>
              )}
            </>
          }
        />
        {!planner && <MyBookings teamUuid={teamUuid} />}
        <Card sx={{ mb: 3, px: 2.5, py: 1.25 }}>
          <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
            <Box component="h2" sx={{ typography: 'subtitle1', fontWeight: 600, m: 0, whiteSpace: 'nowrap' }}>
              {t('calendars.title')}
            </Box>
            <Box sx={{ flex: 1, minWidth: 0 }}>
              <CalendarList
                teamUuid={teamUuid}
                calendars={calendars}
                hidden={hidden}
                canManage={admin}
                onToggle={onToggle}
              />
            </Box>
            {admin && <AddExternalCalendarButton teamUuid={teamUuid} />}
            {planner && (
              <Button
                variant="contained"
                startIcon={<AddIcon />}
                onClick={() => setEventMode({ kind: 'new' })}
                disabled={!defaultCalendar}
                data-testid="calendar-new-event"
                sx={{ whiteSpace: 'nowrap' }}
              >
                {t('actions.newEvent')}
              </Button>
            )}
          </Stack>
        </Card>
        <Card>
          <EntriesTable
            entries={entries.data?.entries ?? []}
            total={entries.data?.total ?? 0}
            offset={offset}
            onOffset={onOffset}
            loading={shownIds.length > 0 && entries.isPending}
            teamUuid={teamUuid}
            admin={admin}
            planner={planner}
            onAction={onAction}
          />
        </Card>

        {eventMode && defaultCalendar && (
          <EventDialog
            teamUuid={teamUuid}
            zone={zone}
            calendarId={calendar?.type === 'default' ? calendar.dbcalendarid : defaultCalendar.dbcalendarid}
            mode={eventMode}
            showHistory={admin}
            onClose={() => setEventMode(null)}
          />
        )}
        {inviting && <InviteDialog teamUuid={teamUuid} entry={inviting} onClose={() => setInviting(null)} />}
        {zoneOpen && <TimeZoneDialog teamUuid={teamUuid} zone={zone} onClose={() => setZoneOpen(false)} />}
        <ConfirmDialog
          open={decision !== null}
          title={
            decision
              ? t(decision.decision === 'confirm' ? 'decision.confirmTitle' : 'decision.cancelTitle')
              : ''
          }
          message={
            decision
              ? t(decision.decision === 'confirm' ? 'decision.confirmMessage' : 'decision.cancelMessage', {
                  summary: decision.entry.summary,
                })
              : ''
          }
          confirmLabel={t('decision.yes')}
          cancelLabel={t('decision.no')}
          destructive={decision?.decision === 'cancel'}
          busy={decide.isPending}
          onClose={() => setDecision(null)}
          onConfirm={() =>
            decision &&
            decide.mutate(
              { id: decision.entry.dbcalendarentryid, decision: decision.decision },
              {
                onSuccess: () => {
                  enqueueSnackbar(
                    t(decision.decision === 'confirm' ? 'decision.confirmed' : 'decision.cancelled'),
                    { variant: 'success' },
                  );
                  setDecision(null);
                },
              },
            )
          }
          testId="entry-decision-dialog"
        />
        <ConfirmRemoval
          item={removing}
          title={t('remove.title')}
          message={removing ? t('remove.message', { summary: removing.summary }) : ''}
          confirmLabel={t('remove.confirm')}
          cancelLabel={t('remove.cancel')}
          remove={(entry, options) => remove.mutate(entry.dbcalendarentryid, options)}
          removing={remove.isPending}
          removed={() => t('remove.removed')}
          onClose={() => setRemoving(null)}
          testId="entry-remove-dialog"
        />
      </Box>
    </PageContainer>
  );
}
