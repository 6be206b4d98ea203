import { Box, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { brand } from '../../ui/brand.ts';

/** The product mark: a lens sending a picture on its way. */
export function LogoMark({ size = 32 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 32 32" aria-hidden="true" focusable="false">
      <rect width="32" height="32" rx="8" fill={brand.ink} />
      <circle cx="12.5" cy="16" r="6.5" fill="none" stroke="#fff" strokeWidth="2.6" />
      <circle cx="12.5" cy="16" r="2.2" fill="#fff" />
      <path
        d="M20.5 16h6.5M23.8 12.2 27.6 16l-3.8 3.8"
        fill="none"
        stroke={brand.amber}
        strokeWidth="2.6"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}

/**
 * Logo with word mark; goes to / (spec §2 'App shell'). `markOnlyOnPhone` leaves the word mark out
 * below 600 px, where a visitor's bar also holds the language, sign-in and sign-up buttons.
 */
export function Logo({
  inverted = false,
  markOnlyOnPhone = false,
}: {
  inverted?: boolean;
  markOnlyOnPhone?: boolean;
}) {
  const { t } = useTranslation('common');
  return (
    <Box
      component={RouterLink}
      to="/"
      // The name starts with the word shown (WCAG 2.5.3).
      aria-label={`${t('productName')} – ${t('home')}`}
      data-testid="logo"
      sx={{
        display: 'inline-flex',
        alignItems: 'center',
        gap: 1.25,
        textDecoration: 'none',
        color: 'inherit',
      }}
    >
      <LogoMark />
      <Typography
        component="span"
        sx={{
          fontWeight: 750,
          fontSize: '1.2rem',
          letterSpacing: '-0.02em',
          color: inverted ? '#fff' : brand.ink,
          display: markOnlyOnPhone ? { xs: 'none', sm: 'inline' } : undefined,
        }}
      >
        {t('productName')}
      </Typography>
    </Box>
  );
}
