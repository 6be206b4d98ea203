// Issue 28: why a picture or a delivery failed, in one plain line that names the script, the
// destination or the folder; the technical text stays behind "Details".
import { Box, Link, Typography } from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { FailureCause } from '../api/picture-log.ts';

export function useCauseText() {
  const { t } = useTranslation('jobLog');
  return (cause: FailureCause) => {
    const v = cause.values;
    if (cause.code === 'script')
      return v.script
        ? t('causes.script', { script: v.script, line: v.line, message: v.message })
        : t('causes.scriptNoPlace', { message: v.message });
    return t(`causes.${cause.code}`, {
      destination: v.destination ?? '',
      reply: v.reply ?? '',
      folder: v.folder ?? '',
    });
  };
}

/** The sentence with a Details toggle for the raw text. */
export function FailureCauseLine({
  cause,
  color = 'error',
  testId,
  text,
}: {
  cause: FailureCause;
  color?: 'error' | 'warning.main' | 'text.secondary' | 'inherit';
  testId?: string;
  /** Another wording of the same cause (the banner's). */
  text?: string;
}) {
  const { t } = useTranslation('jobLog');
  const causeText = useCauseText();
  const [open, setOpen] = useState(false);
  return (
    <Box data-testid={testId} data-cause={cause.code} sx={{ minWidth: 0 }}>
      <Typography variant="body2" color={color} sx={{ overflowWrap: 'break-word', hyphens: 'auto' }}>
        {text ?? causeText(cause)}{' '}
        <Link
          component="button"
          type="button"
          variant="body2"
          color="inherit"
          onClick={(event) => {
            event.stopPropagation();
            setOpen((value) => !value);
          }}
          aria-expanded={open}
          data-testid="cause-details-toggle"
          sx={{ verticalAlign: 'baseline', textDecoration: 'underline' }}
        >
          {open ? t('hideDetails') : t('details')}
        </Link>
      </Typography>
      {open && (
        <Typography
          variant="caption"
          sx={{
            display: 'block',
            fontFamily: 'monospace',
            overflowWrap: 'anywhere',
            color: 'text.secondary',
          }}
          data-testid="cause-details"
        >
          {cause.raw}
        </Typography>
      )}
    </Box>
  );
}
