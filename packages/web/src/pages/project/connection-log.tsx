// The last FTP/SFTP connections to the project's account, each expandable to its commands and
// replies, so a photographer can see why a camera's login or upload fails.
import CheckCircleOutlineIcon from '@mui/icons-material/CheckCircleOutlined';
import ErrorOutlineIcon from '@mui/icons-material/ErrorOutlineOutlined';
import KeyboardArrowDownIcon from '@mui/icons-material/KeyboardArrowDown';
import KeyboardArrowRightIcon from '@mui/icons-material/KeyboardArrowRight';
import LanOutlinedIcon from '@mui/icons-material/LanOutlined';
import LockOpenOutlinedIcon from '@mui/icons-material/LockOpenOutlined';
import LockOutlinedIcon from '@mui/icons-material/LockOutlined';
import { Box, Card, Chip, Collapse, IconButton, Stack, TableCell, TableRow, Typography } from '@mui/material';
import type { connectionSession } from '@photorelay/contract/projects';
import { Fragment, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { useConnectionLog } from '../../api/projects.ts';
import { CardHeading } from '../../ui/card-heading.tsx';
import { DataTable } from '../../ui/data-table.tsx';
import { formatDateTime, formatTime } from '../../ui/format.ts';
import { StatusPanel } from '../../ui/page.tsx';

type Session = z.infer<typeof connectionSession>;

/** How many sessions the card lists; the server keeps more. */
const shownSessions = 25;

function LoginChip({ session }: { session: Session }) {
  const { t } = useTranslation('projects');
  if (session.loginResult === null) {
    return <Chip size="small" variant="outlined" label={t('log.noLogin')} />;
  }
  const ok = session.loginResult === 'ok';
  return (
    <Chip
      size="small"
      color={ok ? 'success' : 'error'}
      variant={ok ? 'outlined' : 'filled'}
      icon={ok ? <CheckCircleOutlineIcon /> : <ErrorOutlineIcon />}
      label={ok ? t('log.loginOk') : t('log.loginFailed', { reason: session.loginResult })}
      data-testid="log-login"
    />
  );
}

function SessionRow({ session, language }: { session: Session; language: string }) {
  const { t } = useTranslation('projects');
  const [open, setOpen] = useState(false);
  return (
    <Fragment>
      <TableRow
        hover
        onClick={() => setOpen((value) => !value)}
        sx={{ cursor: 'pointer', '& > td': { borderBottom: open ? 0 : undefined } }}
        data-testid="log-session"
      >
        <TableCell padding="checkbox">
          <IconButton
            size="small"
            aria-label={open ? t('log.collapse') : t('log.expand')}
            aria-expanded={open}
          >
            {open ? <KeyboardArrowDownIcon fontSize="small" /> : <KeyboardArrowRightIcon fontSize="small" />}
          </IconButton>
        </TableCell>
        <TableCell sx={{ whiteSpace: 'nowrap', fontVariantNumeric: 'tabular-nums' }}>
          {formatDateTime(session.startedAt, language, true)}
        </TableCell>
        <TableCell sx={{ fontFamily: 'monospace', fontSize: '0.85rem' }}>{session.remoteAddress}</TableCell>
        <TableCell>
          <Stack direction="row" spacing={0.75} sx={{ alignItems: 'center' }}>
            <Typography variant="body2" sx={{ fontWeight: 600, textTransform: 'uppercase' }}>
              {session.protocol}
            </Typography>
            {session.tls ? (
              <Chip
                size="small"
                icon={<LockOutlinedIcon />}
                label="TLS"
                color="success"
                variant="outlined"
                sx={{ height: 22 }}
                data-testid="log-tls"
              />
            ) : (
              <Chip
                size="small"
                icon={<LockOpenOutlinedIcon />}
                label={t('log.plain')}
                variant="outlined"
                sx={{ height: 22 }}
              />
            )}
          </Stack>
        </TableCell>
        <TableCell>{session.username ?? '–'}</TableCell>
        <TableCell>
          <LoginChip session={session} />
        </TableCell>
        <TableCell align="right" sx={{ color: 'text.secondary' }}>
          {t('log.entries', { count: session.entries.length })}
        </TableCell>
      </TableRow>
      <TableRow>
        <TableCell colSpan={7} sx={{ py: 0, ...(open ? {} : { borderBottom: 0 }) }}>
          <Collapse in={open} timeout="auto" unmountOnExit>
            <Box
              sx={{
                my: 1.5,
                p: 1.5,
                borderRadius: 1.5,
                bgcolor: '#0f1b2e',
                color: '#dbe4f3',
                fontFamily: '"JetBrains Mono", "SFMono-Regular", Consolas, monospace',
                fontSize: '0.8rem',
                maxHeight: 320,
                overflow: 'auto',
              }}
              data-testid="log-entries"
            >
              {session.entries.length === 0 && <Box sx={{ color: '#8ea0bd' }}>{t('log.noEntries')}</Box>}
              {session.entries.map((entry, index) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: a session's log only grows at its end
                <Stack key={`${entry.at}-${index}`} direction="row" spacing={1.5} sx={{ lineHeight: 1.7 }}>
                  <Box component="span" sx={{ color: '#8ea0bd', flexShrink: 0 }}>
                    {formatTime(entry.at, language)}
                  </Box>
                  <Box
                    component="span"
                    sx={{
                      color:
                        entry.kind === 'error' ? '#ff8a80' : entry.kind === 'command' ? '#9ec5ff' : '#a5e3b4',
                      width: 14,
                      flexShrink: 0,
                      textAlign: 'center',
                    }}
                    title={entry.kind}
                  >
                    {entry.kind === 'command'
                      ? '→'
                      : entry.kind === 'reply'
                        ? '←'
                        : entry.kind === 'error'
                          ? '!'
                          : '·'}
                  </Box>
                  <Box component="span" sx={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
                    {entry.text}
                  </Box>
                </Stack>
              ))}
              {session.endedAt && (
                <Box sx={{ color: '#8ea0bd', mt: 0.5 }}>
                  {t('log.ended', { time: formatTime(session.endedAt, language) })}
                </Box>
              )}
            </Box>
          </Collapse>
        </TableCell>
      </TableRow>
    </Fragment>
  );
}

export function ConnectionLog({ teamUuid, projectId }: { teamUuid: string; projectId: number }) {
  const { t, i18n } = useTranslation('projects');
  const language = i18n.resolvedLanguage ?? 'en';
  const log = useConnectionLog(teamUuid, projectId);
  const sessions = (log.data ?? []).slice(0, shownSessions);
  return (
    <Card data-testid="connection-log">
      <CardHeading
        icon={<LanOutlinedIcon color="primary" />}
        title={t('log.title')}
        subtitle={t('log.text')}
      />
      <DataTable
        loading={log.isPending}
        rows={sessions}
        rowKey={(session) => session.id}
        empty={
          <StatusPanel
            icon={<LanOutlinedIcon />}
            title={t('log.emptyTitle')}
            text={t('log.emptyText')}
            testId="log-empty"
          />
        }
        size="small"
        columns={[
          { label: '', padding: 'checkbox' },
          { label: t('log.columns.time') },
          { label: t('log.columns.client') },
          { label: t('log.columns.protocol') },
          { label: t('log.columns.user') },
          { label: t('log.columns.login') },
          { label: t('log.columns.entries'), align: 'right' },
        ]}
        renderRow={(session) => <SessionRow session={session} language={language} />}
      />
    </Card>
  );
}
