// Issue 16 language pass: technical errors (network, FTP, parser) reach the user as a plain,
// translated sentence; the raw text stays one click away behind "Details".
import { Box, Link, Typography } from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type plainErrorsEn from '../i18n/plain-errors.en.json';

type PlainErrorKey = Exclude<keyof typeof plainErrorsEn, 'details' | 'hideDetails' | 'unknown'>;

/** Known technical texts and the sentence that explains them (first match wins). */
const patterns: Array<[RegExp, PlainErrorKey]> = [
  [/^The FTP server was deleted$/, 'serverDeleted'],
  [/^The FTP server was removed from the project$/, 'serverRemoved'],
  [/^The destination project was deleted$/, 'projectDeleted'],
  [/ECONNREFUSED/, 'refused'],
  [/ENOTFOUND|EAI_AGAIN|getaddrinfo/, 'unknownHost'],
  [/ETIMEDOUT|timed? ?out/i, 'timeout'],
  [/ECONNRESET|EPIPE|socket hang up|closed by the server/i, 'connectionLost'],
  [/\b530\b|login incorrect|authentication|auth fail|wrong user name or password/i, 'loginFailed'],
  [/\b55[0-3]\b|permission denied|no such file/i, 'noPermission'],
  [/private (network|address)/i, 'privateNetwork'],
  [/certificate|self[- ]signed|TLS|SSL/i, 'tls'],
  [/NOT_JPEG|not a JPEG/i, 'notJpeg'],
  [/namespace prefix|XMP|xml/i, 'badXmp'],
  [/Invalid JSON|Unexpected token|JSON/i, 'badJson'],
];

/** The key of the sentence for a technical text, or null when it is not known. */
export function plainErrorKey(raw: string): PlainErrorKey | null {
  return patterns.find(([pattern]) => pattern.test(raw))?.[1] ?? null;
}

export function usePlainError() {
  const { t } = useTranslation('plainErrors');
  return (raw: string) => {
    const key = plainErrorKey(raw);
    return key ? t(key) : t('unknown');
  };
}

/** The plain sentence, with the technical text behind a "Details" toggle. */
export function PlainError({
  text,
  sentence,
  color = 'error',
  testId,
}: {
  text: string;
  /** Says it in other words than the plain sentence (e.g. 'last try failed (…)'). */
  sentence?: string;
  color?: 'error' | 'warning.main' | 'text.secondary';
  testId?: string;
}) {
  const { t } = useTranslation('plainErrors');
  const plain = usePlainError();
  const [open, setOpen] = useState(false);
  return (
    <Box data-testid={testId} sx={{ minWidth: 0 }}>
      <Typography variant="caption" color={color} sx={{ display: 'block', overflowWrap: 'anywhere' }}>
        {sentence ?? plain(text)}{' '}
        <Link
          component="button"
          type="button"
          variant="caption"
          onClick={(event) => {
            event.stopPropagation();
            setOpen((value) => !value);
          }}
          aria-expanded={open}
          data-testid="error-details-toggle"
          sx={{ verticalAlign: 'baseline' }}
        >
          {open ? t('hideDetails') : t('details')}
        </Link>
      </Typography>
      {open && (
        <Typography
          variant="caption"
          color="text.secondary"
          sx={{ display: 'block', fontFamily: 'monospace', overflowWrap: 'anywhere' }}
          data-testid="error-details"
        >
          {text}
        </Typography>
      )}
    </Box>
  );
}
