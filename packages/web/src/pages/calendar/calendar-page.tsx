// /calendar?id (spec §2 'Calendar page'): the team's events grouped by day, with bookings, flags and
// the row actions; photographers also see their own bookings. Opens on today as an agenda over the
// next months, or a month as a grid (?view=month&month=yyyy-MM; ?start=yyyy-mm-dd starts the agenda
// there), and always says which days it shows (issue 27 item 1).
import AddIcon from '@mui/icons-material/Add';
import CalendarMonthOutlinedIcon from '@mui/icons-material/CalendarMonthOutlined';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import FlagOutlinedIcon from '@mui/icons-material/FlagOutlined';
import PublicOutlinedIcon from '@mui/icons-material/PublicOutlined';
import { Alert, Box, Button, Card, Stack, Typography } from '@mui/material';
import { useSnackbar } from 'notistack';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import {
  type CalendarEntry,
  useCalendars,
  useDeleteEntry,
  useEntries,
  useEntryDecision,
} from '../../api/calendar.ts';
import { type FolderNode, useFolderTree } from '../../api/folders.ts';
import { CalendarFeedCard } from '../../ui/calendar-feed-card.tsx';
import { ConfirmDialog, ConfirmRemoval } from '../../ui/confirm-dialog.tsx';
import { NotFoundCard, PageContainer, PageHeader, PageSpinner } from '../../ui/page.tsx';
import { useCurrentTeam, useSession } from '../../ui/session.ts';
import { CalendarList } from './calendar-list.tsx';
import { agendaCanGrow, rangeDays } from './calendar-range.ts';
import { defaultTimeZone, todayIso } from './calendar-time.ts';
import { EntriesTable } from './entries-table.tsx';
import type { RowAction } from './entry-row.tsx';
import { EventDialog, type EventDialogMode } from './event-dialog.tsx';
import { AddExternalCalendarButton } from './external-calendars.tsx';
import { FlagListDialog } from './flag-list-dialog.tsx';
import { InviteDialog } from './invite-dialog.tsx';
import { MonthGrid } from './month-grid.tsx';
import { MyBookings } from './my-bookings.tsx';
import { RangeToolbar } from './range-toolbar.tsx';
import { TimeZoneDialog } from './time-zone-dialog.tsx';
import { useShownRange } from './use-shown-range.ts';

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
  const [highlight, setHighlight] = useState<number | null>(null);
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
  const zone = list.data?.timeZone ?? defaultTimeZone;
  const today = todayIso(zone);
  const { view, month, range, goToMonth, onShift, onToday, onView, showDay, showLater } = useShownRange(
    params,
    today,
  );
  // The table's page: the server answers 200 entries from `offset` (another range or calendar: page 1).
  const [paging, setPaging] = useState({ key: '', offset: 0 });
  const pagingKey = `${range.start}/${range.end}/${shownIds.join(',')}`;
  const offset = paging.key === pagingKey ? paging.offset : 0;
  const entries = useEntries(teamUuid, shownIds, range.start, range.end, offset);
  const onOffset = useCallback((next: number) => setPaging({ key: pagingKey, offset: next }), [pagingKey]);

  /** After saving: the range moves to the event's day if needed, and its row is marked (item 1). */
  const onSaved = useCallback(
    (id: number, day: string | null) => {
      setHighlight(id);
      if (day) showDay(day);
    },
    [showDay],
  );
  const onDay = useCallback((day: string) => {
    document
      .querySelector(`[data-testid="calendar-day-${day}"]`)
      ?.scrollIntoView({ block: 'start', behavior: 'smooth' });
  }, []);
  const shownEntries = entries.data?.entries;
  useEffect(() => {
    if (highlight === null || !shownEntries) return;
    document.querySelector(`[data-testid="entry-row-${highlight}"]`)?.scrollIntoView({ block: 'center' });
  }, [highlight, shownEntries]);

  const [eventMode, setEventMode] = useState<EventDialogMode | null>(null);
  const [inviting, setInviting] = useState<CalendarEntry | null>(null);
  const [decision, setDecision] = useState<Decision | null>(null);
  const [removing, setRemoving] = useState<CalendarEntry | null>(null);
  const [zoneOpen, setZoneOpen] = useState(false);
  const decide = useEntryDecision(teamUuid);
  const remove = useDeleteEntry(teamUuid);
  const [flagList, setFlagList] = useState(false);

  const onAction = useCallback(
    (action: RowAction, entry: CalendarEntry) => {
      switch (action) {
        case 'edit':
          setEventMode(
            planner && entry.calendartype === 'default' ? { kind: 'edit', entry } : { kind: 'view', entry },
          );
          return;
        case 'create':
          // The dialog prefilled from the external entry, to check and complete before saving.
          setEventMode({ kind: 'fromExternal', entry });
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
    [planner],
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

  const days = rangeDays(range, today);
  const total = entries.data?.total ?? 0;
  const loading = shownIds.length > 0 && entries.isPending;
  // Photographers see the team's calendar only with read on it (folder rights, as everywhere);
  // their own invitations and bookings always (issue 27 item 2, said on the page).
  const teamEvents = calendars.length > 0;
  const emptyHint = planner
    ? t('range.emptyHintPlanner')
    : teamEvents
      ? t('range.emptyHintPhotographer')
      : undefined;

  return (
    <PageContainer maxWidth="xl">
      <Box data-testid="calendar-page" data-zone={zone} data-view={view}>
        <PageHeader
          title={calendar?.name ?? t('title')}
          subtitle={planner ? t('subtitle') : teamEvents ? t('access.photographer') : undefined}
          icon={<CalendarMonthOutlinedIcon />}
          actions={
            admin && (
              <Button
                color="inherit"
                startIcon={<PublicOutlinedIcon />}
                onClick={() => setZoneOpen(true)}
                data-testid="calendar-time-zone"
                title={t('timeZone.title')}
                sx={{ whiteSpace: 'nowrap', maxWidth: '100%' }}
              >
                {zone}
              </Button>
            )
          }
        />
        {!planner && <MyBookings teamUuid={teamUuid} />}
        {!planner && !teamEvents && (
          <Alert severity="info" sx={{ mb: 3 }} data-testid="calendar-no-team-events">
            {t('access.noTeamEvents')}
          </Alert>
        )}
        {(teamEvents || admin) && (
          <>
            <Card sx={{ mb: 2, px: 2, py: 1.25 }}>
              <Stack
                direction="row"
                useFlexGap
                spacing={1.5}
                sx={{ alignItems: 'center', flexWrap: 'wrap', justifyContent: 'space-between' }}
              >
                <RangeToolbar
                  view={view}
                  month={month}
                  onView={onView}
                  onMonth={goToMonth}
                  onShift={onShift}
                  onToday={onToday}
                />
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
            <Card sx={{ mb: 2, px: 2, py: 1.25 }}>
              <Stack direction="row" useFlexGap spacing={1.5} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
                <Box
                  component="h2"
                  sx={{ typography: 'subtitle1', fontWeight: 600, m: 0, whiteSpace: 'nowrap' }}
                >
                  {t('calendars.title')}
                </Box>
                <Box sx={{ flex: '1 1 220px', minWidth: 0 }}>
                  <CalendarList
                    teamUuid={teamUuid}
                    calendars={calendars}
                    hidden={hidden}
                    canManage={admin}
                    onToggle={onToggle}
                  />
                </Box>
                {admin && (
                  <Button
                    color="inherit"
                    startIcon={<FlagOutlinedIcon />}
                    onClick={() => setFlagList(true)}
                    data-testid="calendar-flag-list"
                    sx={{ whiteSpace: 'nowrap' }}
                  >
                    {t('flagList.manage')}
                  </Button>
                )}
                {admin && <AddExternalCalendarButton teamUuid={teamUuid} />}
              </Stack>
            </Card>
            <Typography
              variant="body2"
              color="text.secondary"
              sx={{ mb: 1, px: 0.5 }}
              data-testid="calendar-range"
              data-start={range.start}
              data-end={range.end}
              aria-live="polite"
            >
              {loading
                ? t('range.loading', days)
                : total > 0
                  ? t('range.events', { ...days, count: total })
                  : t('range.none', days)}
            </Typography>
            <Card>
              {view === 'month' && (
                <MonthGrid month={month} today={today} entries={shownEntries ?? []} onDay={onDay} />
              )}
              <EntriesTable
                entries={shownEntries ?? []}
                total={total}
                offset={offset}
                onOffset={onOffset}
                loading={loading}
                teamUuid={teamUuid}
                admin={admin}
                planner={planner}
                onAction={onAction}
                highlight={highlight}
                emptyTitle={t('range.none', days)}
                emptyHint={emptyHint}
              />
              {view === 'agenda' && agendaCanGrow(range) && !loading && (
                <Box sx={{ p: 1.5, textAlign: 'center', borderTop: 1, borderColor: 'divider' }}>
                  <Button startIcon={<ExpandMoreIcon />} onClick={showLater} data-testid="calendar-later">
                    {t('range.later')}
                  </Button>
                </Box>
              )}
            </Card>
          </>
        )}

        {/* The member's own subscription, here too and not only on the profile page (item 10). */}
        <Box sx={{ mt: 3 }}>
          <CalendarFeedCard teamUuid={teamUuid} />
        </Box>

        {eventMode && defaultCalendar && (
          <EventDialog
            teamUuid={teamUuid}
            zone={zone}
            calendarId={calendar?.type === 'default' ? calendar.dbcalendarid : defaultCalendar.dbcalendarid}
            mode={eventMode}
            showHistory={admin}
            onSaved={onSaved}
            onClose={() => setEventMode(null)}
          />
        )}
        {flagList && <FlagListDialog teamUuid={teamUuid} onClose={() => setFlagList(false)} />}
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
