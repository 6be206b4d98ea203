import { Box, Container, Link, Stack, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { legalLinks } from './legal-links.ts';
import { LogoMark } from './logo.tsx';

/** Footer for logged-out visitors (spec §2 'App shell'). */
export function Footer() {
  const { t } = useTranslation('shell');
  return (
    <Box component="footer" sx={{ borderTop: 1, borderColor: 'divider', bgcolor: 'background.paper', py: 3 }}>
      <Container maxWidth="lg">
        <Stack
          direction={{ xs: 'column', sm: 'row' }}
          spacing={2}
          sx={{ alignItems: { xs: 'flex-start', sm: 'center' }, justifyContent: 'space-between' }}
        >
          <Stack direction="row" spacing={1.25} sx={{ alignItems: 'center' }}>
            <LogoMark size={22} />
            <Typography variant="body2" color="text.secondary">
              {t('footer.copyright', { year: new Date().getFullYear() })}
            </Typography>
          </Stack>
          <Stack component="nav" aria-label={t('footer.legalNav')} direction="row" spacing={3}>
            {legalLinks.map((link) => (
              <Link
                key={link.to}
                component={RouterLink}
                to={link.to}
                variant="body2"
                color="text.secondary"
                underline="hover"
              >
                {t(link.labelKey)}
              </Link>
            ))}
          </Stack>
        </Stack>
      </Container>
    </Box>
  );
}
