// The calendar's range (issue 27 item 1): agenda or month grid, a month back and forward, a month
// picker and 'Today'. Wraps onto more lines on a phone instead of widening the page (item 9).
import ChevronLeftIcon from '@mui/icons-material/ChevronLeft';
import ChevronRightIcon from '@mui/icons-material/ChevronRight';
import TodayOutlinedIcon from '@mui/icons-material/TodayOutlined';
import ViewAgendaOutlinedIcon from '@mui/icons-material/ViewAgendaOutlined';
import ViewModuleOutlinedIcon from '@mui/icons-material/ViewModuleOutlined';
import { Button, IconButton, Stack, ToggleButton, ToggleButtonGroup, Tooltip } from '@mui/material';
import { AdapterDateFns } from '@mui/x-date-pickers/AdapterDateFns';
import { DatePicker } from '@mui/x-date-pickers/DatePicker';
import { LocalizationProvider } from '@mui/x-date-pickers/LocalizationProvider';
import { limits } from '@photorelay/contract/limits';
import { format, isValid, parse } from 'date-fns';
import { de, enGB } from 'date-fns/locale';
import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import type { CalendarView } from './calendar-range.ts';

const readMonth = (month: string) => parse(`${month}-01`, 'yyyy-MM-dd', new Date(2000, 0, 1));
const minMonth = limits.calendarMin.slice(0, 7);
// The spec's last day is 2030-01-01: its month is the last one to show.
const maxMonth = limits.calendarMax.slice(0, 7);

type Props = {
  view: CalendarView;
  /** The month shown (yyyy-MM): the grid's, or the one the agenda starts in. */
  month: string;
  onView: (view: CalendarView) => void;
  onMonth: (month: string) => void;
  onShift: (months: number) => void;
  onToday: () => void;
};

export const RangeToolbar = memo(function RangeToolbar({
  view,
  month,
  onView,
  onMonth,
  onShift,
  onToday,
}: Props) {
  const { t, i18n } = useTranslation('calendar');
  return (
    <LocalizationProvider
      dateAdapter={AdapterDateFns}
      adapterLocale={i18n.resolvedLanguage === 'de' ? de : enGB}
    >
      <Stack
        direction="row"
        useFlexGap
        spacing={1}
        sx={{ alignItems: 'center', flexWrap: 'wrap' }}
        data-testid="calendar-toolbar"
      >
        <ToggleButtonGroup
          size="small"
          exclusive
          value={view}
          onChange={(_event, next: CalendarView | null) => next && onView(next)}
          aria-label={t('range.view')}
        >
          <ToggleButton value="agenda" data-testid="calendar-view-agenda" sx={{ gap: 0.75, px: 1.5 }}>
            <ViewAgendaOutlinedIcon fontSize="small" />
            {t('range.agenda')}
          </ToggleButton>
          <ToggleButton value="month" data-testid="calendar-view-month" sx={{ gap: 0.75, px: 1.5 }}>
            <ViewModuleOutlinedIcon fontSize="small" />
            {t('range.month')}
          </ToggleButton>
        </ToggleButtonGroup>
        <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center' }}>
          <Tooltip title={t('picker.previous')}>
            <span>
              <IconButton
                size="small"
                onClick={() => onShift(-1)}
                aria-label={t('picker.previous')}
                data-testid="calendar-previous"
                disabled={month <= minMonth}
              >
                <ChevronLeftIcon />
              </IconButton>
            </span>
          </Tooltip>
          <DatePicker
            label={t('picker.month')}
            views={['year', 'month']}
            openTo="month"
            value={readMonth(month)}
            minDate={readMonth(minMonth)}
            maxDate={readMonth(maxMonth)}
            format="MMMM yyyy"
            onChange={(date) => {
              if (date && isValid(date)) onMonth(format(date, 'yyyy-MM'));
            }}
            slotProps={{
              textField: {
                size: 'small',
                sx: { width: 215 },
                name: 'calendar-month',
              },
            }}
          />
          <Tooltip title={t('picker.next')}>
            <span>
              <IconButton
                size="small"
                onClick={() => onShift(1)}
                aria-label={t('picker.next')}
                data-testid="calendar-next"
                disabled={month >= maxMonth}
              >
                <ChevronRightIcon />
              </IconButton>
            </span>
          </Tooltip>
        </Stack>
        <Button
          variant="outlined"
          startIcon={<TodayOutlinedIcon />}
          onClick={onToday}
          data-testid="calendar-today"
        >
          {t('picker.today')}
        </Button>
      </Stack>
    </LocalizationProvider>
  );
});
