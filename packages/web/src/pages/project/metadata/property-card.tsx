// One catalog property on the metadata tab (spec §2): title, description, mode selector and its
// inputs; debug mode adds the XMP name, type and ids (spec §6).
import {
  Box,
  Chip,
  ListItemText,
  MenuItem,
  Paper,
  Stack,
  TextField,
  Tooltip,
  Typography,
} from '@mui/material';
import { memo, useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { useSetXmpMode, type XmpMode, type XmpProperty } from '../../../api/metadata.ts';
import { useMetadata } from './metadata-context.tsx';
import { modeOptions } from './metadata-model.ts';
import { ModeActivationContext } from './mode-activation.ts';
import { titleOf, typeName } from './value-input.tsx';
import { FieldEditor } from './value-inputs.tsx';

/** Accent per mode, so the active properties stand out while scrolling. */
const modeColors: Record<XmpMode, string> = {
  off: 'divider',
  replace: 'primary.main',
  append: 'success.main',
  prepend: 'success.main',
  merge: 'secondary.main',
};

function ModeSelect({ property, mode }: { property: XmpProperty; mode: XmpMode }) {
  const { t } = useTranslation('metadataTab');
  const { teamUuid, projectId, canWrite } = useMetadata();
  const setMode = useSetXmpMode(teamUuid, projectId);
  return (
    <TextField
      select
      size="small"
      label={t('mode')}
      value={mode}
      disabled={!canWrite}
      onChange={(event) => setMode.mutate({ propertyId: property.id, mode: event.target.value as XmpMode })}
      data-testid={`xmp-mode-${property.id}`}
      sx={{ width: { xs: '100%', sm: 168 }, flexShrink: 0 }}
      slotProps={{
        select: {
          renderValue: (value) => (
            <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
              <Box
                component="span"
                sx={{
                  width: 8,
                  height: 8,
                  borderRadius: '50%',
                  bgcolor: value === 'off' ? 'text.disabled' : modeColors[value as XmpMode],
                  flexShrink: 0,
                }}
              />
              <span>{t(`modes.${value as XmpMode | 'off'}`)}</span>
            </Stack>
          ),
          MenuProps: { slotProps: { paper: { sx: { maxWidth: 320 } } } },
        },
      }}
    >
      {modeOptions(property).map((option) => (
        <MenuItem key={option} value={option} dense>
          <ListItemText
            primary={t(`modes.${option}`)}
            secondary={t(`modeHelp.${option}`)}
            slotProps={{ secondary: { sx: { whiteSpace: 'normal' } } }}
          />
        </MenuItem>
      ))}
    </TextField>
  );
}

function DebugDetails({ property }: { property: XmpProperty }) {
  const { t } = useTranslation('metadataTab');
  const items = [
    [t('debug.xmp'), property.xmpName],
    [t('debug.type'), typeName(property, t)],
    [t('debug.id'), property.id],
    ...(property.vars.length > 0 ? [['vars', property.vars.map((name) => `{${name}}`).join(' ')]] : []),
    ...(property.iimName ? [['IIM', `${property.iimName} (${property.iimMaxBytes ?? '–'} B)`]] : []),
  ];
  return (
    <Stack
      direction="row"
      sx={{ flexWrap: 'wrap', columnGap: 2, rowGap: 0.25, mt: 0.75, fontFamily: 'monospace', fontSize: 12 }}
      data-testid={`xmp-debug-${property.id}`}
    >
      {items.map(([name, value]) => (
        <Box component="span" key={name} sx={{ color: 'text.secondary' }}>
          <Box component="span" sx={{ color: 'text.disabled' }}>
            {name}:
          </Box>{' '}
          {value}
        </Box>
      ))}
    </Stack>
  );
}

type Props = { property: XmpProperty; mode: XmpMode };

export const PropertyCard = memo(function PropertyCard({ property, mode }: Props) {
  const { t } = useTranslation('metadataTab');
  const { language, debug, canWrite, teamUuid, projectId } = useMetadata();
  const title = titleOf(property, language);
  const description = property.desc[language] || property.desc.en;
  const disabled = !canWrite;
  const setMode = useSetXmpMode(teamUuid, projectId);
  // Typing into an off property turns it on: Replace where the property allows it (issue 28).
  const activate = useCallback(() => {
    if (mode !== 'off' || !canWrite || setMode.isPending) return;
    const options = modeOptions(property).filter((option) => option !== 'off');
    const next = options.includes('replace') ? 'replace' : options[0];
    if (next) setMode.mutate({ propertyId: property.id, mode: next });
  }, [mode, canWrite, setMode, property]);
  return (
    <Paper
      variant="outlined"
      component="section"
      aria-label={title}
      data-testid={`xmp-property-${property.id}`}
      data-mode={mode}
      sx={{
        p: { xs: 1.5, sm: 2 },
        borderLeft: 3,
        borderLeftColor: modeColors[mode],
        transition: 'border-color 150ms',
      }}
    >
      <Stack
        direction={{ xs: 'column', sm: 'row' }}
        spacing={{ xs: 1.25, sm: 2 }}
        sx={{ alignItems: 'flex-start' }}
      >
        <Box sx={{ flex: 1, minWidth: 0 }}>
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
            <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600, lineHeight: 1.35 }}>
              {title}
            </Typography>
            {property.iimName && (
              <Tooltip title={t('iimHint', { name: property.iimName, max: property.iimMaxBytes ?? '–' })}>
                <Chip
                  label={t('iimChip')}
                  size="small"
                  variant="outlined"
                  sx={{ height: 18, fontSize: '0.65rem', fontWeight: 700, color: 'text.secondary' }}
                />
              </Tooltip>
            )}
          </Stack>
          <Typography variant="body2" color="text.secondary" sx={{ mt: 0.25 }}>
            {description}
          </Typography>
          {debug && <DebugDetails property={property} />}
        </Box>
        <ModeSelect property={property} mode={mode} />
      </Stack>
      <Box sx={{ mt: 1.5, opacity: mode === 'off' ? 0.85 : 1 }}>
        <ModeActivationContext.Provider value={activate}>
          <FieldEditor def={property} disabled={disabled} />
        </ModeActivationContext.Provider>
      </Box>
    </Paper>
  );
});
