import RefreshIcon from '@mui/icons-material/Refresh';
import { Box, Button, Dialog, Stack, Typography } from '@mui/material';
import { Component, type ErrorInfo, type ReactNode, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useRouteError } from 'react-router';
import { showFatalError, useFatalError } from './fatal-error-store.ts';

const blueScreen = '#0a3a8c';

/** Spec §2: text, detail and a Reload button; nothing else of the app can be used meanwhile. */
export function FatalErrorDialog() {
  const detail = useFatalError();
  const { t } = useTranslation('errors');
  return (
    <Dialog
      open={detail !== null}
      fullScreen
      aria-labelledby="fatal-error-title"
      slotProps={{ paper: { sx: { bgcolor: blueScreen, color: '#fff', backgroundImage: 'none' } } }}
    >
      <Box sx={{ maxWidth: 760, mx: 'auto', px: 3, py: { xs: 6, md: 12 }, width: '100%' }}>
        <Stack spacing={4}>
          <Typography
            component="span"
            sx={{
              alignSelf: 'flex-start',
              bgcolor: '#fff',
              color: blueScreen,
              px: 1.5,
              py: 0.5,
              fontWeight: 700,
            }}
          >
            {t('fatal.badge')}
          </Typography>
          <Typography
            id="fatal-error-title"
            variant="h5"
            component="h1"
            sx={{ fontWeight: 500, lineHeight: 1.5 }}
          >
            {t('fatal.text')}
          </Typography>
          {detail && (
            <Box
              component="pre"
              data-testid="fatal-error-detail"
              sx={{
                m: 0,
                p: 2,
                maxHeight: 280,
                overflow: 'auto',
                fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
                fontSize: 13,
                whiteSpace: 'pre-wrap',
                wordBreak: 'break-word',
                bgcolor: 'rgba(0,0,0,0.25)',
                borderRadius: 1,
              }}
            >
              {detail}
            </Box>
          )}
          <Box>
            <Button
              variant="contained"
              startIcon={<RefreshIcon />}
              onClick={() => window.location.reload()}
              sx={{ bgcolor: '#fff', color: blueScreen, '&:hover': { bgcolor: '#e6ecf7' } }}
            >
              {t('fatal.reload')}
            </Button>
          </Box>
        </Stack>
      </Box>
    </Dialog>
  );
}

/** Catches render errors outside the router. */
export class FatalErrorBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override componentDidCatch(error: Error, info: ErrorInfo) {
    showFatalError(info.componentStack ? `${error.message}\n${info.componentStack}` : error);
  }
  override render() {
    return this.state.failed ? <FatalErrorDialog /> : this.props.children;
  }
}

/** The router catches render errors of routes itself; this hands them to the blue screen. */
export function RouteErrorElement() {
  const error = useRouteError();
  useEffect(() => showFatalError(error), [error]);
  return null;
}

const ignoredWindowErrors = [/ResizeObserver loop/i];

/** Uncaught exceptions and rejections anywhere end in the blue screen. */
export function installWindowErrorHandlers(isHandled: (error: unknown) => boolean): void {
  window.addEventListener('error', (event) => {
    if (ignoredWindowErrors.some((pattern) => pattern.test(event.message))) return;
    if (isHandled(event.error)) return;
    showFatalError(event.error ?? event.message);
  });
  window.addEventListener('unhandledrejection', (event) => {
    if (isHandled(event.reason)) return;
    showFatalError(event.reason);
  });
}
