// Building blocks shared by all screens so that spacing and typography stay consistent.
import SearchOffOutlinedIcon from '@mui/icons-material/SearchOffOutlined';
import { Box, Card, CardContent, CircularProgress, Container, Stack, Typography } from '@mui/material';
import { type ReactNode, useEffect } from 'react';
import { useTranslation } from 'react-i18next';

/** Sets the browser tab title to '<title> · PhotoRelay'. */
export function useDocumentTitle(title: string | undefined) {
  const { t } = useTranslation('common');
  const product = t('productName');
  useEffect(() => {
    document.title = title ? `${title} · ${product}` : product;
  }, [title, product]);
}

type PageContainerProps = {
  children: ReactNode;
  maxWidth?: 'sm' | 'md' | 'lg' | 'xl' | false;
};

export function PageContainer({ children, maxWidth = 'lg' }: PageContainerProps) {
  return (
    <Container maxWidth={maxWidth} sx={{ py: { xs: 3, md: 4 }, px: { xs: 2, sm: 3, md: 4 } }}>
      {children}
    </Container>
  );
}

type PageHeaderProps = { title: string; subtitle?: ReactNode; actions?: ReactNode; icon?: ReactNode };

export function PageHeader({ title, subtitle, actions, icon }: PageHeaderProps) {
  useDocumentTitle(title);
  return (
    <Stack
      direction={{ xs: 'column', sm: 'row' }}
      spacing={2}
      sx={{
        mb: { xs: 3, md: 4 },
        alignItems: { xs: 'flex-start', sm: 'center' },
        justifyContent: 'space-between',
      }}
    >
      <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center', minWidth: 0 }}>
        {icon && (
          <Box
            sx={{
              display: 'grid',
              placeItems: 'center',
              width: 44,
              height: 44,
              borderRadius: 2,
              bgcolor: 'rgba(31,79,179,0.08)',
              color: 'primary.main',
              flexShrink: 0,
            }}
          >
            {icon}
          </Box>
        )}
        <Box sx={{ minWidth: 0 }}>
          <Typography variant="h4" component="h1">
            {title}
          </Typography>
          {subtitle && (
            <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
              {subtitle}
            </Typography>
          )}
        </Box>
      </Stack>
      {actions && (
        <Stack direction="row" spacing={1}>
          {actions}
        </Stack>
      )}
    </Stack>
  );
}

type AuthCardProps = {
  title: string;
  subtitle?: ReactNode;
  children: ReactNode;
  footer?: ReactNode;
  maxWidth?: number;
  testId?: string;
};

/** The soft backdrop behind the centered account and status cards. */
function CenteredBackdrop({ children }: { children: ReactNode }) {
  return (
    <Box
      sx={{
        flex: 1,
        display: 'flex',
        alignItems: { xs: 'flex-start', sm: 'center' },
        justifyContent: 'center',
        px: 2,
        py: { xs: 3, sm: 6 },
        background: 'radial-gradient(1200px 500px at 50% -10%, rgba(31,79,179,0.10), transparent 70%)',
      }}
    >
      {children}
    </Box>
  );
}

const cardShadow = '0 12px 40px rgba(20,41,74,0.08)';

/** Centered card for the account screens (sign in, sign up, verify, recover, reset). */
export function AuthCard({ title, subtitle, children, footer, maxWidth = 460, testId }: AuthCardProps) {
  useDocumentTitle(title);
  return (
    <CenteredBackdrop>
      <Card sx={{ width: '100%', maxWidth, boxShadow: cardShadow }} data-testid={testId}>
        <CardContent sx={{ p: { xs: 3, sm: 4 }, '&:last-child': { pb: { xs: 3, sm: 4 } } }}>
          <Typography variant="h4" component="h1" sx={{ mb: subtitle ? 1 : 3 }}>
            {title}
          </Typography>
          {subtitle && (
            <Typography variant="body2" color="text.secondary" sx={{ mb: 3 }}>
              {subtitle}
            </Typography>
          )}
          {children}
          {footer && (
            <Box sx={{ mt: 3, pt: 2.5, borderTop: 1, borderColor: 'divider', textAlign: 'center' }}>
              {footer}
            </Box>
          )}
        </CardContent>
      </Card>
    </CenteredBackdrop>
  );
}

/** A status message in a centered card: results of account flows, warnings, not found. */
export function StatusCard(props: StatusPanelProps & { documentTitle?: string }) {
  useDocumentTitle(props.documentTitle ?? props.title);
  return (
    <CenteredBackdrop>
      <Card sx={{ width: '100%', maxWidth: 560, boxShadow: cardShadow }}>
        <CardContent sx={{ px: { xs: 2, sm: 4 }, py: { xs: 1, sm: 2 } }}>
          <StatusPanel {...props} />
        </CardContent>
      </Card>
    </CenteredBackdrop>
  );
}

type StatusPanelProps = {
  icon: ReactNode;
  title: string;
  text?: ReactNode;
  actions?: ReactNode;
  tone?: 'info' | 'warning' | 'success' | 'error';
  testId?: string;
  children?: ReactNode;
};

const toneColors = {
  info: { fg: '#1f4fb3', bg: 'rgba(31,79,179,0.10)' },
  warning: { fg: '#b45309', bg: 'rgba(245,158,11,0.15)' },
  success: { fg: '#15803d', bg: 'rgba(21,128,61,0.12)' },
  error: { fg: '#c62828', bg: 'rgba(198,40,40,0.10)' },
};

/** A centered message with an icon: warnings, empty states, results. */
export function StatusPanel({
  icon,
  title,
  text,
  actions,
  tone = 'info',
  testId,
  children,
}: StatusPanelProps) {
  const colors = toneColors[tone];
  return (
    <Stack
      spacing={2}
      sx={{ alignItems: 'center', textAlign: 'center', py: { xs: 4, md: 6 }, px: 2 }}
      data-testid={testId}
    >
      <Box
        sx={{
          display: 'grid',
          placeItems: 'center',
          width: 64,
          height: 64,
          borderRadius: '50%',
          bgcolor: colors.bg,
          color: colors.fg,
          '& svg': { fontSize: 32 },
        }}
      >
        {icon}
      </Box>
      <Typography variant="h5" component="h2" sx={{ maxWidth: 560 }}>
        {title}
      </Typography>
      {text && (
        <Typography color="text.secondary" sx={{ maxWidth: 560 }}>
          {text}
        </Typography>
      )}
      {children}
      {actions && (
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ pt: 1 }}>
          {actions}
        </Stack>
      )}
    </Stack>
  );
}

/** In place of a page whose item (project, folder, FTP server) does not exist or is not visible. */
export function NotFoundCard({
  icon = <SearchOffOutlinedIcon />,
  testId,
}: {
  icon?: ReactNode;
  testId: string;
}) {
  const { t } = useTranslation('common');
  return (
    <Card>
      <StatusPanel
        icon={icon}
        tone="warning"
        title={t('notFound.title')}
        text={t('notFound.text')}
        testId={testId}
      />
    </Card>
  );
}

export function PageSpinner() {
  return (
    <Box sx={{ flex: 1, display: 'grid', placeItems: 'center', minHeight: 240 }}>
      <CircularProgress size={32} />
    </Box>
  );
}
