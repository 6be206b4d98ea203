// Issue 28: one picture of the job log (project protocol, phone page): its thumbnail, name and
// time, its own failure once (a script error), and its destinations as chips; the chips open
// each delivery's state, cause and retry. Laid out as a list item, so it fits a phone.
import ExpandLessIcon from '@mui/icons-material/ExpandLess';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import ReplayOutlinedIcon from '@mui/icons-material/ReplayOutlined';
import SendOutlinedIcon from '@mui/icons-material/SendOutlined';
import { Box, Button, Checkbox, Chip, IconButton, Stack, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import type { PictureDelivery, PictureRow } from '../api/picture-log.ts';
import { useEmptyVariableText } from './empty-variable.ts';
import { FailureCauseLine } from './failure-cause.tsx';
import { formatCompactDateTime, formatSize } from './format.ts';
import { MetadataNotes } from './metadata-notes.tsx';
import { PictureThumb } from './picture-thumb.tsx';

type Tone = 'success' | 'error' | 'warning' | 'info' | 'default';

/** A delivery's colour: failed red, retrying or held amber, waiting blue, delivered green. */
export function deliveryChipTone(d: Pick<PictureDelivery, 'state' | 'trynumber'>): Tone {
  if (d.state === 'succeeded') return 'success';
  if (d.state === 'failed' || d.state === 'rejected') return 'error';
  // Held (issue 26): waits for a person, like a retry; amber also reads at 4.5:1 (blue did not).
  if ((d.state === 'scheduled' || d.state === 'running') && d.trynumber > 0) return 'warning';
  if (d.state === 'held') return 'warning';
  if (d.state === 'scheduled' || d.state === 'running') return 'info';
  return 'default';
}

function useDeliveryLabel() {
  const { t } = useTranslation('jobLog');
  return (d: PictureDelivery) => {
    if ((d.state === 'scheduled' || d.state === 'running') && d.trynumber > 0)
      return t('delivery.retrying', { count: d.trynumber + 1 });
    const known = [
      'scheduled',
      'running',
      'failed',
      'succeeded',
      'duplicate',
      'held',
      'rejected',
      'skipped',
    ] as const;
    const state = known.find((s) => s === d.state);
    return state ? t(`delivery.${state}`) : d.state;
  };
}

export function PictureLogRow({
  picture,
  teamUuid,
  language,
  now,
  showProject,
  selected,
  onSelect,
  open,
  onToggle,
  onOpenPicture,
  onRetry,
  retrying,
  onSendAgain,
}: {
  picture: PictureRow;
  teamUuid: string;
  language: string;
  now: number;
  showProject?: boolean;
  selected?: boolean;
  onSelect?: (selected: boolean) => void;
  open: boolean;
  onToggle: () => void;
  onOpenPicture: () => void;
  onRetry: (jobIds: number[]) => void;
  retrying: boolean;
  onSendAgain: () => void;
}) {
  const { t } = useTranslation('jobLog');
  const label = useDeliveryLabel();
  const emptyVariableText = useEmptyVariableText();
  const retryable = picture.deliveries.filter((d) => d.canRetry && d.state !== 'succeeded');
  const time = formatCompactDateTime(picture.receivedAt, now, language);
  const size = formatSize(picture.filesize, language);
  return (
    <Box
      component="li"
      data-testid="picture-row"
      data-filename={picture.filename}
      sx={{ listStyle: 'none', borderBottom: 1, borderColor: 'divider', px: { xs: 1, sm: 2 }, py: 1.25 }}
    >
      <Stack direction="row" spacing={{ xs: 1, sm: 1.5 }} sx={{ alignItems: 'flex-start' }}>
        {onSelect && (
          <Checkbox
            size="small"
            checked={selected ?? false}
            onChange={(event) => onSelect(event.target.checked)}
            slotProps={{ input: { 'aria-label': t('select', { name: picture.filename }) } }}
            sx={{ p: 0.5, mt: 0.5 }}
            data-testid="picture-select"
          />
        )}
        <PictureThumb
          teamUuid={teamUuid}
          uploadId={picture.uploadId}
          size={48}
          label={picture.filename}
          onOpen={onOpenPicture}
        />
        <Box sx={{ minWidth: 0, flex: 1 }}>
          <Stack direction="row" spacing={1} sx={{ alignItems: 'flex-start' }}>
            <Box sx={{ minWidth: 0, flex: 1 }}>
              <Typography
                variant="body2"
                sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}
                data-testid="picture-file"
              >
                {picture.filename}
              </Typography>
              <Typography variant="caption" color="text.secondary" sx={{ display: 'block' }}>
                {showProject
                  ? t('receivedIn', { time, project: picture.project, size })
                  : t('received', { time, size })}
              </Typography>
            </Box>
            <IconButton
              size="small"
              onClick={onToggle}
              aria-expanded={open}
              aria-label={t(open ? 'collapse' : 'expand', { name: picture.filename })}
              data-testid="picture-expand"
            >
              {open ? <ExpandLessIcon /> : <ExpandMoreIcon />}
            </IconButton>
          </Stack>
          {picture.cause && <FailureCauseLine cause={picture.cause} testId="picture-cause" />}
          <MetadataNotes
            picture={picture}
            teamUuid={teamUuid}
            canRelease={picture.deliveries.some((d) => d.canRetry)}
          />
          {picture.emptyVariables.map((empty) => (
            <Typography
              key={empty.name}
              variant="body2"
              color="warning.dark"
              sx={{ overflowWrap: 'anywhere' }}
              data-testid="picture-empty-variable"
            >
              {emptyVariableText(empty)}
            </Typography>
          ))}
          <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 0.75, mt: 0.75 }}>
            {picture.deliveries.map((d) => (
              <Chip
                key={d.jobId}
                size="small"
                color={deliveryChipTone(d)}
                variant={deliveryChipTone(d) === 'success' ? 'outlined' : 'filled'}
                label={`${d.name}: ${label(d)}`}
                onClick={onToggle}
                data-testid="delivery-chip"
                data-state={d.state}
                // A long destination name wraps inside its chip instead of ending in '…': a phone
                // has no tooltip to show the rest.
                sx={{
                  maxWidth: '100%',
                  height: 'auto',
                  minHeight: 24,
                  fontWeight: 600,
                  '& .MuiChip-label': { whiteSpace: 'normal', overflowWrap: 'anywhere', py: 0.25 },
                }}
              />
            ))}
          </Stack>
          {open && (
            <Stack spacing={1} sx={{ mt: 1.25 }} data-testid="picture-deliveries">
              {picture.deliveries.map((d) => (
                <Box
                  key={d.jobId}
                  data-testid="picture-delivery"
                  sx={{
                    pl: 1.25,
                    borderLeft: 3,
                    borderColor: `${deliveryChipTone(d) === 'default' ? 'grey' : deliveryChipTone(d)}.main`,
                  }}
                >
                  <Stack direction="row" sx={{ alignItems: 'center', flexWrap: 'wrap', columnGap: 1 }}>
                    <Typography variant="body2" sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>
                      {d.name}
                    </Typography>
                    <Typography variant="body2" color="text.secondary">
                      {label(d)}
                      {d.tries.length > 0 && ` · ${t('tries', { count: d.tries.length })}`}
                    </Typography>
                    {d.canRetry && d.state !== 'succeeded' && (
                      <Button
                        size="small"
                        startIcon={<ReplayOutlinedIcon />}
                        onClick={() => onRetry([d.jobId])}
                        disabled={retrying}
                        data-testid="delivery-retry"
                      >
                        {t('retryDelivery')}
                      </Button>
                    )}
                  </Stack>
                  {d.cause && (
                    <FailureCauseLine
                      cause={d.cause}
                      color={d.state === 'failed' ? 'error' : 'warning.main'}
                      testId="delivery-cause"
                    />
                  )}
                </Box>
              ))}
              <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1 }}>
                {retryable.length > 1 && (
                  <Button
                    size="small"
                    variant="outlined"
                    startIcon={<ReplayOutlinedIcon />}
                    onClick={() => onRetry(retryable.map((d) => d.jobId))}
                    disabled={retrying}
                  >
                    {t('retrySelected', { count: retryable.length })}
                  </Button>
                )}
                {picture.canSendAgain && (
                  <Button
                    size="small"
                    variant="outlined"
                    startIcon={<SendOutlinedIcon />}
                    onClick={onSendAgain}
                    data-testid="picture-send-again"
                  >
                    {t('sendAgain')}
                  </Button>
                )}
              </Stack>
            </Stack>
          )}
        </Box>
      </Stack>
    </Box>
  );
}
