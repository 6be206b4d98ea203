// The legend under the calendar table: what each booking chip colour means, in words.
import { Box } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { chipColors, chipLegend } from './booking-rules.ts';

/** What the chip colours mean (spec §4 colours, issue 27 item 4: never colour alone). */
export function BookingLegend() {
  const { t } = useTranslation('calendar');
  return (
    <Box
      component="ul"
      aria-label={t('legend.title')}
      data-testid="booking-legend"
      sx={{
        display: 'flex',
        flexWrap: 'wrap',
        gap: 1.5,
        listStyle: 'none',
        m: 0,
        px: 2,
        py: 1.5,
        typography: 'caption',
        color: 'text.secondary',
      }}
    >
      {chipLegend.map(({ tone, label }) => (
        <Box component="li" key={tone} sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.75 }}>
          <Box
            component="span"
            aria-hidden
            sx={{ width: 14, height: 14, borderRadius: '50%', bgcolor: chipColors[tone].bg, flex: 'none' }}
          />
          {t(label)}
        </Box>
      ))}
    </Box>
  );
}
