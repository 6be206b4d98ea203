// The listing's start date (spec §2, §9): a date picker limited to 2022-01-01..2030-01-01 in the
// UI's language, a 'Today' button and a month back and forward.
import ChevronLeftIcon from '@mui/icons-material/ChevronLeft';
import ChevronRightIcon from '@mui/icons-material/ChevronRight';
import TodayOutlinedIcon from '@mui/icons-material/TodayOutlined';
import { Button, IconButton, Stack } from '@mui/material';
import { AdapterDateFns } from '@mui/x-date-pickers/AdapterDateFns';
import { DatePicker } from '@mui/x-date-pickers/DatePicker';
import { LocalizationProvider } from '@mui/x-date-pickers/LocalizationProvider';
import { limits } from '@photorelay/contract/limits';
import { addMonths, format, isValid, parse } from 'date-fns';
import { de, enGB } from 'date-fns/locale';
import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import { todayIso } from './calendar-time.ts';

const readDay = (day: string) => parse(day, 'yyyy-MM-dd', new Date());
const minDay = readDay(limits.calendarMin);
const maxDay = readDay(limits.calendarMax);

/** The day clamped into the spec's range. */
export function clampDay(day: string): string {
  if (day < limits.calendarMin) return limits.calendarMin;
  if (day > limits.calendarMax) return limits.calendarMax;
  return day;
}

type Props = { value: string; zone: string; onChange: (day: string) => void };

/** Memoised: the page renders again when the listing arrives; the picker's props are the same then. */
export const StartDatePicker = memo(function StartDatePicker({ value, zone, onChange }: Props) {
  const { t, i18n } = useTranslation('calendar');
  const shift = (months: number) =>
    onChange(clampDay(format(addMonths(readDay(value), months), 'yyyy-MM-dd')));
  return (
    <LocalizationProvider
      dateAdapter={AdapterDateFns}
      adapterLocale={i18n.resolvedLanguage === 'de' ? de : enGB}
    >
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
        <IconButton
          size="small"
          onClick={() => shift(-1)}
          title={t('picker.previous')}
          aria-label={t('picker.previous')}
          data-testid="calendar-previous"
          disabled={value <= limits.calendarMin}
        >
          <ChevronLeftIcon />
        </IconButton>
        <DatePicker
          label={t('picker.label')}
          value={readDay(value)}
          minDate={minDay}
          maxDate={maxDay}
          format="dd.MM.yyyy"
          onChange={(date) => {
            if (date && isValid(date) && date >= minDay && date <= maxDay)
              onChange(format(date, 'yyyy-MM-dd'));
          }}
          slotProps={{
            textField: { size: 'small', sx: { width: 180 }, name: 'calendar-start' },
          }}
        />
        <IconButton
          size="small"
          onClick={() => shift(1)}
          title={t('picker.next')}
          aria-label={t('picker.next')}
          data-testid="calendar-next"
          disabled={value >= limits.calendarMax}
        >
          <ChevronRightIcon />
        </IconButton>
        <Button
          variant="outlined"
          startIcon={<TodayOutlinedIcon />}
          onClick={() => onChange(clampDay(todayIso(zone)))}
          data-testid="calendar-today"
        >
          {t('picker.today')}
        </Button>
      </Stack>
    </LocalizationProvider>
  );
});
