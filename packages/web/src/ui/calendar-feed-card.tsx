// The member's own calendar subscription (issue 13): a secret, revocable iCalendar URL for
// Google Calendar, Apple Calendar or Thunderbird.
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import EventRepeatOutlinedIcon from '@mui/icons-material/EventRepeatOutlined';
import { Box, Button, Card, CardContent, IconButton, Stack, TextField, Typography } from '@mui/material';
import { useSnackbar } from 'notistack';
import { useTranslation } from 'react-i18next';
import { useCalendarFeed, useChangeCalendarFeed } from '../api/externalcalendars.ts';

export function CalendarFeedCard({ teamUuid }: { teamUuid: string }) {
  const { t } = useTranslation('externalCalendars');
  const { enqueueSnackbar } = useSnackbar();
  const feed = useCalendarFeed(teamUuid);
  const change = useChangeCalendarFeed(teamUuid);
  const url = feed.data?.url ?? null;
  const copy = async () => {
    if (!url) return;
    await navigator.clipboard?.writeText(url);
    enqueueSnackbar(t('feed.copied'), { variant: 'success' });
  };
  return (
    <Card data-testid="calendar-feed-card">
      <CardContent sx={{ p: { xs: 2.5, sm: 3 } }}>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mb: 1 }}>
          <EventRepeatOutlinedIcon color="primary" />
          <Typography variant="h6" component="h2">
            {t('feed.title')}
          </Typography>
        </Stack>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          {t('feed.intro')}
        </Typography>
        {url ? (
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mb: 2 }}>
            <TextField
              fullWidth
              size="small"
              value={url}
              slotProps={{ htmlInput: { readOnly: true, 'data-testid': 'calendar-feed-url' } }}
              onFocus={(event) => event.target.select()}
            />
            <IconButton title={t('feed.copy')} aria-label={t('feed.copy')} onClick={() => void copy()}>
              <ContentCopyIcon fontSize="small" />
            </IconButton>
          </Stack>
        ) : (
          <Typography variant="body2" sx={{ mb: 2 }}>
            {feed.isPending ? ' ' : t('feed.none')}
          </Typography>
        )}
        <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
          <Button
            variant={url ? 'outlined' : 'contained'}
            disabled={change.isPending}
            onClick={() => change.mutate('renew')}
            data-testid="calendar-feed-renew"
          >
            {url ? t('feed.renew') : t('feed.create')}
          </Button>
          {url && feed.data?.webcalUrl && (
            <Button href={feed.data.webcalUrl} color="inherit">
              {t('feed.open')}
            </Button>
          )}
          {url && (
            <Button
              color="error"
              disabled={change.isPending}
              onClick={() => change.mutate('revoke')}
              data-testid="calendar-feed-revoke"
            >
              {t('feed.revoke')}
            </Button>
          )}
        </Box>
      </CardContent>
    </Card>
  );
}
