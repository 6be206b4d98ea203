// The event dialog (spec §5 'Event dialog', 'Event defaults'): create, edit, copy or view one
// calendar entry. Dates and times are typed as dd.mm.yyyy and hh:mm in the team's zone.
import { zodResolver } from '@hookform/resolvers/zod';
import {
  Autocomplete,
  Box,
  Button,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  MenuItem,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import type { ParseKeys } from 'i18next';
import { useSnackbar } from 'notistack';
import { useEffect } from 'react';
import { Controller, type FieldPath, useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { type CalendarEntry, useCategoryFile, useSaveEntry } from '../../api/calendar.ts';
import { BookingHistoryList } from './booking-history.tsx';
import { dialogDateToDay } from './calendar-range.ts';
import { defaultEnd, todayText } from './calendar-time.ts';
import { EventFlagsField } from './event-flags-field.tsx';
import {
  type EventFormValues,
  entryToForm,
  eventCategories,
  eventDefaults,
  eventFormSchema,
  formToBody,
  parseCategoryFile,
  sceneOptions,
  teamSummary,
  urgencies,
} from './event-form.ts';

export type EventDialogMode =
  | { kind: 'new' }
  | { kind: 'edit'; entry: CalendarEntry }
  | { kind: 'copy'; entry: CalendarEntry }
  | { kind: 'view'; entry: CalendarEntry }
  /** A team event made from an external entry: prefilled, remembers its source (issue 27 item 8). */
  | { kind: 'fromExternal'; entry: CalendarEntry };

type Props = {
  teamUuid: string;
  zone: string;
  /** The default calendar new events and copies go to. */
  calendarId: number;
  mode: EventDialogMode;
  showHistory: boolean;
  /** After a save: the entry's id and its start day (yyyy-MM-dd), so the calendar shows it. */
  onSaved?: (id: number, day: string | null) => void;
  onClose: () => void;
};

export function EventDialog({ teamUuid, zone, calendarId, mode, showHistory, onSaved, onClose }: Props) {
  const { t } = useTranslation('calendar');
  const { t: tc } = useTranslation('common');
  const { enqueueSnackbar } = useSnackbar();
  const save = useSaveEntry(teamUuid);
  const readOnly = mode.kind === 'view';
  const form = useForm<EventFormValues>({
    resolver: zodResolver(eventFormSchema),
    mode: 'onTouched',
    defaultValues:
      mode.kind === 'new'
        ? eventDefaults(todayText(zone))
        : {
            ...entryToForm(mode.entry, zone, Boolean(mode.entry.team1 || mode.entry.team2)),
            // External entries carry no flags of the team.
            ...(mode.kind === 'fromExternal' ? { flags: 0 } : {}),
          },
  });
  const { control, setValue, getFieldState, handleSubmit } = form;
  const [category, subcategory, date, time, team1, team2] = useWatch({
    control,
    name: ['category', 'subcategory', 'date', 'time', 'team1', 'team2'],
  });
  const newsScenes = t('sceneSuggestions.news', { returnObjects: true }) as unknown as string[];
  const file = useCategoryFile(teamUuid, category);
  const definition = parseCategoryFile(file.data);
  const sub = definition.subCategories.find((candidate) => candidate.id === subcategory);
  const showTeams = sub?.showTeams ?? false;
  const scenes = sceneOptions(definition, subcategory, category, newsScenes);

  useEffect(() => {
    if (file.data !== undefined) setValue('showTeams', showTeams);
  }, [file.data, showTeams, setValue]);

  // The end follows the start (two hours later) until it is edited itself.
  useEffect(() => {
    if (getFieldState('endDate').isDirty || getFieldState('endTime').isDirty) return;
    const end = defaultEnd(date, time, zone);
    if (end) {
      setValue('endDate', end.date);
      setValue('endTime', end.time);
    }
  }, [date, time, zone, setValue, getFieldState]);

  const submit = handleSubmit((values) => {
    const body = {
      ...formToBody(eventFormSchema.parse(values), zone),
      ...(mode.kind === 'fromExternal' ? { sourceEntryId: mode.entry.dbcalendarentryid } : {}),
    };
    const editing = mode.kind === 'edit';
    save.mutate(
      {
        calendarId: editing ? mode.entry.dbcalendarid : calendarId,
        id: editing ? mode.entry.dbcalendarentryid : undefined,
        body,
      },
      {
        onSuccess: (id) => {
          enqueueSnackbar(t(editing ? 'event.saved' : 'event.created'), { variant: 'success' });
          onSaved?.(id, dialogDateToDay(values.date));
          onClose();
        },
      },
    );
  });

  const text = (
    name: FieldPath<EventFormValues>,
    label: string,
    extra: { hint?: string; multiline?: boolean; required?: boolean; width?: number | string } = {},
  ) => (
    <Controller
      name={name}
      control={control}
      render={({ field, fieldState }) => (
        <TextField
          {...field}
          value={field.value ?? ''}
          label={label}
          required={extra.required}
          multiline={extra.multiline}
          minRows={extra.multiline ? 2 : undefined}
          disabled={readOnly}
          error={Boolean(fieldState.error)}
          helperText={
            fieldState.error?.message
              ? t(fieldState.error.message as ParseKeys<'calendar'>)
              : (extra.hint ?? ' ')
          }
          sx={{ flex: 1, minWidth: extra.width ?? 128 }}
          slotProps={{ htmlInput: { 'data-testid': `event-${name}` } }}
        />
      )}
    />
  );

  const title =
    mode.kind === 'new' || mode.kind === 'copy'
      ? t('event.newTitle')
      : mode.kind === 'fromExternal'
        ? t('event.fromExternalTitle')
        : mode.kind === 'edit'
          ? t('event.editTitle')
          : t('event.viewTitle');
  return (
    <Dialog
      open
      onClose={save.isPending ? undefined : onClose}
      fullWidth
      maxWidth="md"
      data-testid="event-dialog"
      aria-labelledby="event-dialog-title"
    >
      {/* A flex column, so the fields scroll and Save stays in view on a low window (item 8). */}
      <form onSubmit={submit} noValidate style={{ display: 'flex', flexDirection: 'column', minHeight: 0 }}>
        <DialogTitle id="event-dialog-title" sx={{ pb: 0.5 }}>
          {title}
        </DialogTitle>
        <DialogContent>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
            {t('event.timeZone', { zone })}
          </Typography>
          <Stack spacing={0.5}>
            <Stack direction="row" spacing={1.5} useFlexGap sx={{ flexWrap: 'wrap' }}>
              {text('date', t('event.date'), { hint: t('event.dateHint'), required: true })}
              {text('time', t('event.time'), { hint: t('event.timeHint'), required: true })}
              {text('endDate', t('event.endDate'), { hint: t('event.dateHint') })}
              {text('endTime', t('event.endTime'), { hint: t('event.timeHint') })}
            </Stack>
            <Stack direction="row" spacing={1.5} useFlexGap sx={{ flexWrap: 'wrap' }}>
              <Controller
                name="category"
                control={control}
                render={({ field }) => (
                  <TextField
                    select
                    {...field}
                    onChange={(event) => {
                      field.onChange(event);
                      setValue('subcategory', '');
                    }}
                    label={t('event.category')}
                    disabled={readOnly}
                    helperText=" "
                    sx={{ flex: 1, minWidth: 128 }}
                    slotProps={{ htmlInput: { 'data-testid': 'event-category' } }}
                  >
                    {eventCategories.map((value) => (
                      <MenuItem key={value} value={value}>
                        {t(`categories.${value}`)}
                      </MenuItem>
                    ))}
                  </TextField>
                )}
              />
              <Controller
                name="subcategory"
                control={control}
                render={({ field }) => (
                  <TextField
                    select
                    {...field}
                    label={t('event.subcategory')}
                    disabled={readOnly || file.isPending}
                    helperText=" "
                    sx={{ flex: 1, minWidth: 128 }}
                    slotProps={{ htmlInput: { 'data-testid': 'event-subcategory' } }}
                  >
                    {/* An entry's value outside the file stays selectable. */}
                    {[
                      ...new Set([
                        ...definition.subCategories.map((item) => item.id),
                        ...(field.value ? [field.value] : []),
                      ]),
                    ].map((id) => (
                      <MenuItem key={id} value={id}>
                        {/* The team's own ids (config files) keep their name when there is no translation. */}
                        {t(`subcategories.${id}` as ParseKeys<'calendar'>, { defaultValue: id })}
                      </MenuItem>
                    ))}
                  </TextField>
                )}
              />
            </Stack>
            <Controller
              name="scene"
              control={control}
              render={({ field, fieldState }) => (
                <Autocomplete
                  freeSolo
                  options={scenes}
                  value={field.value}
                  onChange={(_event, value) => field.onChange(value ?? '')}
                  inputValue={field.value}
                  onInputChange={(_event, value) => field.onChange(value)}
                  disabled={readOnly}
                  renderInput={(params) => (
                    <TextField
                      {...params}
                      label={t('event.scene')}
                      required
                      onBlur={field.onBlur}
                      error={Boolean(fieldState.error)}
                      helperText={
                        fieldState.error?.message
                          ? `${t(fieldState.error.message as ParseKeys<'calendar'>)} ${t('event.sceneHint')}`
                          : t('event.sceneHint')
                      }
                      slotProps={{
                        ...params.slotProps,
                        htmlInput: { ...params.slotProps.htmlInput, 'data-testid': 'event-scene' },
                      }}
                    />
                  )}
                />
              )}
            />
            {showTeams ? (
              <>
                <Stack direction="row" spacing={1.5} useFlexGap sx={{ flexWrap: 'wrap' }}>
                  {text('team1', t('event.team1'), { required: true })}
                  {text('team2', t('event.team2'), { required: true })}
                </Stack>
                <TextField
                  label={t('event.summary')}
                  value={team1 || team2 ? teamSummary(team1, team2) : ''}
                  disabled
                  helperText={t('event.summaryFromTeams')}
                  slotProps={{ htmlInput: { 'data-testid': 'event-summary-preview' } }}
                />
              </>
            ) : (
              text('summary', t('event.summary'), { required: true })
            )}
            {text('description', t('event.description'), { multiline: true })}
            <Stack direction="row" spacing={1.5} useFlexGap sx={{ flexWrap: 'wrap' }}>
              {text('location', t('event.location'))}
              {text('city', t('event.city'))}
            </Stack>
            <Stack direction="row" spacing={1.5} useFlexGap sx={{ flexWrap: 'wrap' }}>
              {text('state', t('event.state'))}
              {text('country', t('event.country'))}
              <Controller
                name="urgency"
                control={control}
                render={({ field }) => (
                  <TextField
                    select
                    {...field}
                    label={t('event.urgency')}
                    disabled={readOnly}
                    helperText=" "
                    sx={{ flex: 1, minWidth: 128 }}
                    slotProps={{ htmlInput: { 'data-testid': 'event-urgency' } }}
                  >
                    <MenuItem value="">{t('event.noUrgency')}</MenuItem>
                    {urgencies.map((value) => (
                      <MenuItem key={value} value={value}>
                        {value}
                      </MenuItem>
                    ))}
                  </TextField>
                )}
              />
            </Stack>
          </Stack>
          {showHistory && (
            <Controller
              name="flags"
              control={control}
              render={({ field }) => (
                <EventFlagsField
                  teamUuid={teamUuid}
                  value={field.value}
                  onChange={field.onChange}
                  disabled={readOnly}
                />
              )}
            />
          )}
          {showHistory && mode.kind === 'edit' && (
            <Box sx={{ mt: 1 }}>
              <BookingHistoryList teamUuid={teamUuid} entryId={mode.entry.dbcalendarentryid} zone={zone} />
            </Box>
          )}
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2 }}>
          <Button onClick={onClose} disabled={save.isPending}>
            {readOnly ? tc('actions.close') : tc('actions.cancel')}
          </Button>
          {!readOnly && (
            <Button
              type="submit"
              variant="contained"
              disabled={save.isPending}
              startIcon={save.isPending ? <CircularProgress size={16} color="inherit" /> : undefined}
              data-testid="event-save"
            >
              {mode.kind === 'edit' ? tc('actions.save') : tc('actions.create')}
            </Button>
          )}
        </DialogActions>
      </form>
    </Dialog>
  );
}
