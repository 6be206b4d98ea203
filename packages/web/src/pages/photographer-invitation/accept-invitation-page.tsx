// /acceptPhotographerInivitation?userid&ciid&token&selector (spec §2, §5, §8): shows the event the
// photographer is invited to and accepts or declines it with the mailed token.
import EventAvailableOutlinedIcon from '@mui/icons-material/EventAvailableOutlined';
import EventBusyOutlinedIcon from '@mui/icons-material/EventBusyOutlined';
import LinkOffIcon from '@mui/icons-material/LinkOff';
import MailOutlineIcon from '@mui/icons-material/MailOutlined';
import { Box, Button, Typography } from '@mui/material';
import { format } from 'date-fns';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { useConfirmInvitation, useInvitation } from '../../api/calendar.ts';
import { ApiError, NetworkError } from '../../api/client.ts';
import { PageSpinner, StatusCard } from '../../ui/page.tsx';
import { useSession } from '../../ui/session.ts';
import { checkInvitationParams } from './invitation-params.ts';

type Outcome = 'accepted' | 'declined' | 'failed' | 'notOk';

export function AcceptInvitationPage() {
  const { t } = useTranslation('calendar');
  const { t: tp } = useTranslation('photographerInvitation');
  const session = useSession();
  const [search] = useSearchParams();
  const userId = session.status === 'loggedIn' ? session.user.id : 0;
  const check = checkInvitationParams(search, userId);
  const invitation = useInvitation(
    check.ok ? check.params.entryId : 0,
    check.ok ? check.params.token : '',
    check.ok ? check.params.selector : '',
    check.ok,
  );
  const confirm = useConfirmInvitation();
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const documentTitle = t('invitation.title');

  if (!check.ok) {
    return (
      <StatusCard
        documentTitle={documentTitle}
        icon={<LinkOffIcon />}
        tone="warning"
        title={tp(check.problem)}
        testId="invitation-problem"
      />
    );
  }
  const answer = (accept: boolean) =>
    confirm.mutate(
      {
        ciid: check.params.entryId,
        token: check.params.token,
        selector: check.params.selector,
        answer: accept ? 'accepted' : 'rejected',
      },
      {
        onSuccess: (result) =>
          setOutcome(result.result === 'OK' ? (accept ? 'accepted' : 'declined') : 'notOk'),
        // Spec §8: an error field -> 'Something went wrong - please try again'; otherwise 'Something went WRONG!'.
        onError: (error) =>
          setOutcome(
            (error instanceof ApiError && error.code !== 'InvalidResponse') || error instanceof NetworkError
              ? 'failed'
              : 'notOk',
          ),
      },
    );
  const toCalendar = (
    <Button component={RouterLink} to="/calendar" variant="outlined" data-testid="invitation-to-calendar">
      {t('invitation.toCalendar')}
    </Button>
  );
  if (outcome === 'accepted' || outcome === 'declined') {
    return (
      <StatusCard
        documentTitle={documentTitle}
        icon={outcome === 'accepted' ? <EventAvailableOutlinedIcon /> : <EventBusyOutlinedIcon />}
        tone="success"
        title={t(`invitation.${outcome}`)}
        actions={toCalendar}
        testId={`invitation-${outcome}`}
      />
    );
  }
  if (outcome) {
    return (
      <StatusCard
        documentTitle={documentTitle}
        icon={<LinkOffIcon />}
        tone="error"
        title={tp(outcome)}
        testId="invitation-error"
      />
    );
  }
  if (invitation.isPending) return <PageSpinner />;
  const event = invitation.data?.entry;
  // Opened again after answering: say what was answered and when, not the question again (item 7).
  const mine = event?.bookings.find((booking) => booking.userId === invitation.data?.userId);
  if (mine && mine.answer !== 'open') {
    const accepted = mine.answer === 'accepted';
    return (
      <StatusCard
        documentTitle={documentTitle}
        icon={accepted ? <EventAvailableOutlinedIcon /> : <EventBusyOutlinedIcon />}
        tone="success"
        title={t(accepted ? 'invitation.answeredAccepted' : 'invitation.answeredRejected', {
          date: format(new Date(mine.updatedAt), 'dd.MM.'),
        })}
        text={
          event ? `${event.summary} · ${event.localizedStartDate} ${event.localizedStartTime}` : undefined
        }
        testId="invitation-answered"
        actions={
          <>
            {toCalendar}
            {!event?.cancelled && (
              <Button
                onClick={() => answer(!accepted)}
                disabled={confirm.isPending}
                data-testid="invitation-change"
              >
                {t(accepted ? 'invitation.changeToDecline' : 'invitation.changeToAccept')}
              </Button>
            )}
          </>
        }
      />
    );
  }
  return (
    <StatusCard
      documentTitle={documentTitle}
      icon={<MailOutlineIcon />}
      title={t('invitation.title')}
      text={t('invitation.question')}
      testId="invitation-page"
      actions={
        <>
          <Button
            variant="contained"
            onClick={() => answer(true)}
            disabled={confirm.isPending}
            data-testid="invitation-accept"
          >
            {t('invitation.accept')}
          </Button>
          <Button onClick={() => answer(false)} disabled={confirm.isPending} data-testid="invitation-decline">
            {t('invitation.decline')}
          </Button>
        </>
      }
    >
      {event && (
        <Box data-testid="invitation-event">
          <Typography variant="h6" component="p">
            {event.summary}
          </Typography>
          <Typography color="text.secondary">
            {[`${event.localizedStartDate} ${event.localizedStartTime}`, event.location, event.city]
              .filter(Boolean)
              .join(' · ')}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {t('invitation.team', { team: invitation.data?.teamName })}
          </Typography>
        </Box>
      )}
    </StatusCard>
  );
}
