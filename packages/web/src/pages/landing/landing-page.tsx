// '/' for visitors (spec §1, §2 reading B): marketing text and the sign-in form.
import ArrowForwardIcon from '@mui/icons-material/ArrowForward';
import BoltOutlinedIcon from '@mui/icons-material/BoltOutlined';
import CalendarMonthOutlinedIcon from '@mui/icons-material/CalendarMonthOutlined';
import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import CloudUploadOutlinedIcon from '@mui/icons-material/CloudUploadOutlined';
import LocalOfferOutlinedIcon from '@mui/icons-material/LocalOfferOutlined';
import PhotoCameraOutlinedIcon from '@mui/icons-material/PhotoCameraOutlined';
import SendOutlinedIcon from '@mui/icons-material/SendOutlined';
import ShieldOutlinedIcon from '@mui/icons-material/ShieldOutlined';
import { Box, Button, Card, CardContent, Container, Grid, Stack, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { brand } from '../../ui/brand.ts';
import { LoginForm } from '../../ui/login-form.tsx';
import { useDocumentTitle } from '../../ui/page.tsx';

const highlights = ['fast', 'metadata', 'delivery', 'germany'] as const;

const features = [
  { key: 'ingest', icon: <CloudUploadOutlinedIcon /> },
  { key: 'metadata', icon: <LocalOfferOutlinedIcon /> },
  { key: 'delivery', icon: <SendOutlinedIcon /> },
  { key: 'calendar', icon: <CalendarMonthOutlinedIcon /> },
] as const satisfies readonly { key: string; icon: ReactNode }[];

const steps = [
  { key: 'shoot', icon: <PhotoCameraOutlinedIcon /> },
  { key: 'stamp', icon: <BoltOutlinedIcon /> },
  { key: 'deliver', icon: <SendOutlinedIcon /> },
] as const satisfies readonly { key: string; icon: ReactNode }[];

function Hero() {
  const { t } = useTranslation('landing');
  const { t: tLogin } = useTranslation('login');
  return (
    <Box
      component="section"
      sx={{
        color: '#fff',
        background: `radial-gradient(900px 480px at 85% 10%, rgba(245,158,11,0.16), transparent 60%), linear-gradient(135deg, ${brand.inkDark} 0%, ${brand.ink} 55%, #1f4fb3 130%)`,
        py: { xs: 6, md: 10 },
      }}
    >
      <Container maxWidth="lg">
        <Grid container spacing={{ xs: 5, md: 8 }} sx={{ alignItems: 'center' }}>
          <Grid size={{ xs: 12, md: 7 }}>
            <Typography variant="overline" sx={{ color: brand.amber }}>
              {t('hero.eyebrow')}
            </Typography>
            <Typography variant="h1" sx={{ mt: 1.5, fontSize: { xs: '2.1rem', sm: '2.6rem', md: '3.1rem' } }}>
              {t('hero.title')}
            </Typography>
            <Typography
              sx={{
                mt: 2.5,
                fontSize: { xs: '1.05rem', md: '1.2rem' },
                color: 'rgba(255,255,255,0.82)',
                maxWidth: 600,
              }}
            >
              {t('hero.lead')}
            </Typography>
            <Stack component="ul" spacing={1.25} sx={{ listStyle: 'none', p: 0, mt: 3.5, mb: 4 }}>
              {highlights.map((key) => (
                <Stack component="li" key={key} direction="row" spacing={1.25} sx={{ alignItems: 'center' }}>
                  <CheckCircleIcon sx={{ color: brand.amber, fontSize: 20 }} />
                  <Typography sx={{ color: 'rgba(255,255,255,0.92)' }}>
                    {t(`hero.highlights.${key}`)}
                  </Typography>
                </Stack>
              ))}
            </Stack>
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'center' } }}>
              <Button
                component={RouterLink}
                to="/signup"
                size="large"
                variant="contained"
                color="secondary"
                endIcon={<ArrowForwardIcon />}
                data-testid="landing-cta"
              >
                {t('hero.cta')}
              </Button>
              <Typography variant="body2" sx={{ color: 'rgba(255,255,255,0.7)' }}>
                {t('hero.ctaHint')}
              </Typography>
            </Stack>
          </Grid>
          <Grid size={{ xs: 12, md: 5 }}>
            <Card
              variant="elevation"
              sx={{ boxShadow: '0 24px 60px rgba(0,0,0,0.35)', border: 0, maxWidth: 440, mx: 'auto' }}
              data-testid="landing-login"
            >
              <CardContent sx={{ p: { xs: 3, sm: 4 }, '&:last-child': { pb: { xs: 3, sm: 4 } } }}>
                <Typography variant="h5" component="h2" sx={{ mb: 0.5 }}>
                  {tLogin('title')}
                </Typography>
                <Typography variant="body2" color="text.secondary" sx={{ mb: 3 }}>
                  {tLogin('subtitle')}
                </Typography>
                <LoginForm />
              </CardContent>
            </Card>
          </Grid>
        </Grid>
      </Container>
    </Box>
  );
}

function Features() {
  const { t } = useTranslation('landing');
  return (
    <Box component="section" sx={{ py: { xs: 7, md: 10 } }}>
      <Container maxWidth="lg">
        <Box sx={{ textAlign: 'center', maxWidth: 720, mx: 'auto', mb: { xs: 5, md: 7 } }}>
          <Typography variant="overline" color="primary">
            {t('features.eyebrow')}
          </Typography>
          <Typography variant="h2" sx={{ mt: 1, fontSize: { xs: '1.7rem', md: '2.1rem' } }}>
            {t('features.title')}
          </Typography>
          <Typography color="text.secondary" sx={{ mt: 2, fontSize: '1.05rem' }}>
            {t('features.lead')}
          </Typography>
        </Box>
        <Grid container spacing={3}>
          {features.map((feature) => (
            <Grid key={feature.key} size={{ xs: 12, sm: 6, md: 3 }}>
              <Card
                sx={{
                  height: '100%',
                  transition: 'box-shadow 150ms',
                  '&:hover': { boxShadow: '0 10px 30px rgba(20,41,74,0.08)' },
                }}
              >
                <CardContent sx={{ p: 3 }}>
                  <Box
                    sx={{
                      width: 44,
                      height: 44,
                      display: 'grid',
                      placeItems: 'center',
                      borderRadius: 2,
                      bgcolor: 'rgba(31,79,179,0.08)',
                      color: 'primary.main',
                      mb: 2,
                    }}
                  >
                    {feature.icon}
                  </Box>
                  <Typography variant="h6" component="h3" sx={{ mb: 1 }}>
                    {t(`features.items.${feature.key}.title`)}
                  </Typography>
                  <Typography variant="body2" color="text.secondary" sx={{ lineHeight: 1.65 }}>
                    {t(`features.items.${feature.key}.text`)}
                  </Typography>
                </CardContent>
              </Card>
            </Grid>
          ))}
        </Grid>
      </Container>
    </Box>
  );
}

function HowItWorks() {
  const { t } = useTranslation('landing');
  return (
    <Box
      component="section"
      sx={{
        py: { xs: 7, md: 10 },
        bgcolor: 'background.paper',
        borderTop: 1,
        borderBottom: 1,
        borderColor: 'divider',
      }}
    >
      <Container maxWidth="lg">
        <Typography
          variant="h2"
          sx={{ textAlign: 'center', mb: { xs: 5, md: 7 }, fontSize: { xs: '1.7rem', md: '2.1rem' } }}
        >
          {t('steps.title')}
        </Typography>
        <Grid container spacing={{ xs: 4, md: 6 }}>
          {steps.map((step, index) => (
            <Grid key={step.key} size={{ xs: 12, md: 4 }}>
              <Stack
                spacing={1.5}
                sx={{
                  alignItems: { xs: 'flex-start', md: 'center' },
                  textAlign: { xs: 'left', md: 'center' },
                }}
              >
                <Box
                  sx={{
                    position: 'relative',
                    width: 56,
                    height: 56,
                    display: 'grid',
                    placeItems: 'center',
                    borderRadius: '50%',
                    bgcolor: brand.ink,
                    color: '#fff',
                  }}
                >
                  {step.icon}
                  <Box
                    component="span"
                    sx={{
                      position: 'absolute',
                      top: -4,
                      right: -4,
                      width: 22,
                      height: 22,
                      borderRadius: '50%',
                      bgcolor: brand.amber,
                      color: '#1a1a1a',
                      fontSize: 12,
                      fontWeight: 700,
                      display: 'grid',
                      placeItems: 'center',
                    }}
                  >
                    {index + 1}
                  </Box>
                </Box>
                <Typography variant="h6" component="h3">
                  {t(`steps.items.${step.key}.title`)}
                </Typography>
                <Typography color="text.secondary" sx={{ maxWidth: 320 }}>
                  {t(`steps.items.${step.key}.text`)}
                </Typography>
              </Stack>
            </Grid>
          ))}
        </Grid>
      </Container>
    </Box>
  );
}

function Trust() {
  const { t } = useTranslation('landing');
  return (
    <Box component="section" sx={{ py: { xs: 7, md: 9 } }}>
      <Container maxWidth="lg">
        <Card sx={{ overflow: 'hidden' }}>
          <Grid container>
            <Grid size={{ xs: 12, md: 7 }}>
              <Box sx={{ p: { xs: 3, md: 5 } }}>
                <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center', mb: 2 }}>
                  <ShieldOutlinedIcon color="primary" />
                  <Typography variant="overline" color="primary">
                    {t('trust.eyebrow')}
                  </Typography>
                </Stack>
                <Typography variant="h3" component="h2" sx={{ mb: 2 }}>
                  {t('trust.title')}
                </Typography>
                <Typography color="text.secondary" sx={{ lineHeight: 1.7 }}>
                  {t('trust.text')}
                </Typography>
              </Box>
            </Grid>
            <Grid
              size={{ xs: 12, md: 5 }}
              sx={{
                bgcolor: brand.ink,
                color: '#fff',
                display: 'flex',
                flexDirection: 'column',
                justifyContent: 'center',
                p: { xs: 3, md: 5 },
              }}
            >
              <Typography variant="h5" component="h3" sx={{ mb: 1.5 }}>
                {t('cta.title')}
              </Typography>
              <Typography sx={{ color: 'rgba(255,255,255,0.8)', mb: 3 }}>{t('cta.text')}</Typography>
              <Box>
                <Button
                  component={RouterLink}
                  to="/signup"
                  variant="contained"
                  color="secondary"
                  size="large"
                  endIcon={<ArrowForwardIcon />}
                >
                  {t('cta.button')}
                </Button>
              </Box>
            </Grid>
          </Grid>
        </Card>
      </Container>
    </Box>
  );
}

export function LandingPage() {
  const { t } = useTranslation('landing');
  useDocumentTitle(t('documentTitle'));
  return (
    <Box data-testid="landing-page">
      <Hero />
      <Features />
      <HowItWorks />
      <Trust />
    </Box>
  );
}
