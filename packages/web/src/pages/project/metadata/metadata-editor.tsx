// The metadata tab of a project (spec §2 'Project tabs' Metadata; §4 modes and saving; §5 inputs;
// §8 texts): Clear and Download XMP, the XMP import, 'Hide unset values', five category tabs of
// property cards, and the test image preview.

import CloseIcon from '@mui/icons-material/Close';
import CloudDoneOutlinedIcon from '@mui/icons-material/CloudDoneOutlined';
import CloudOffOutlinedIcon from '@mui/icons-material/CloudOffOutlined';
import DeleteSweepOutlinedIcon from '@mui/icons-material/DeleteSweepOutlined';
import EditNoteOutlinedIcon from '@mui/icons-material/EditNoteOutlined';
import ErrorOutlineIcon from '@mui/icons-material/ErrorOutlineOutlined';
import FileDownloadOutlinedIcon from '@mui/icons-material/FileDownloadOutlined';
import SearchIcon from '@mui/icons-material/Search';
import {
  Alert,
  Box,
  Button,
  Card,
  CircularProgress,
  FormControlLabel,
  Grid,
  IconButton,
  InputAdornment,
  Paper,
  Skeleton,
  Stack,
  Switch,
  Tab,
  Tabs,
  TextField,
  Typography,
} from '@mui/material';
import { type ReactNode, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  downloadXmpFileDetail,
  useClearXmpValues,
  useDownloadXmpFile,
  useXmpProperties,
  useXmpValues,
  type XmpProperty,
  type XmpValues,
} from '../../../api/metadata.ts';
import { ConfirmDialog } from '../../../ui/confirm-dialog.tsx';
import { useDebugMode } from '../../../ui/debug-mode.ts';
import { StatusPanel } from '../../../ui/page.tsx';
import type { MetadataEditorStore } from './editor-store.ts';
import { errorText } from './error-text.ts';
import { saveTextFile } from './files.ts';
import {
  type MetadataContextValue,
  MetadataProvider,
  useMetadata,
  useMetadataEditor,
  useSaveSummary,
  useValueIndex,
} from './metadata-context.tsx';
import {
  categoryKeys,
  countSet,
  isPropertySet,
  matchesFilter,
  modeOf,
  propertiesOfCategory,
} from './metadata-model.ts';
import { PropertyCard } from './property-card.tsx';
import { TestImageCard } from './test-image-preview.tsx';
import { XmpUploadCard } from './xmp-upload.tsx';

/** The import and preview stay in view beside the long property list (below the 64 px top bar). */
const sideColumn = {
  position: { lg: 'sticky' },
  top: { lg: 80 },
  maxHeight: { lg: 'calc(100vh - 96px)' },
  overflowY: { lg: 'auto' },
} as const;

const hideUnsetKey = 'photorelay.metadata.hideUnset';

function readHideUnset(): boolean {
  try {
    return localStorage.getItem(hideUnsetKey) === '1';
  } catch {
    return false;
  }
}

function SaveIndicator({ store }: { store: MetadataEditorStore }) {
  const { t } = useTranslation('metadataTab');
  const summary = useSaveSummary(store);
  const look: Record<typeof summary, { icon: ReactNode; color: string }> = {
    saved: { icon: <CloudDoneOutlinedIcon fontSize="small" />, color: 'text.secondary' },
    pending: { icon: <EditNoteOutlinedIcon fontSize="small" />, color: 'warning.main' },
    saving: { icon: <CircularProgress size={16} color="inherit" />, color: 'primary.main' },
    error: { icon: <ErrorOutlineIcon fontSize="small" />, color: 'error.main' },
  };
  return (
    <Stack
      direction="row"
      spacing={0.75}
      sx={{ alignItems: 'center', color: look[summary].color, minHeight: 32 }}
      role="status"
      aria-live="polite"
      data-testid="xmp-save-status"
      data-state={summary}
    >
      {look[summary].icon}
      <Typography variant="body2" sx={{ fontWeight: 500 }}>
        {t(`save.${summary}`)}
      </Typography>
    </Stack>
  );
}

function Toolbar({
  hideUnset,
  onHideUnset,
  onClear,
}: {
  hideUnset: boolean;
  onHideUnset: (hide: boolean) => void;
  onClear: () => void;
}) {
  const { t } = useTranslation('metadataTab');
  const { teamUuid, projectId, canWrite, store } = useMetadata();
  const download = useDownloadXmpFile(teamUuid);
  const [downloading, setDownloading] = useState(false);

  const downloadXmp = async () => {
    setDownloading(true);
    try {
      await store.flush();
      const detail = downloadXmpFileDetail.parse(await download.mutateAsync({ dbprojectid: projectId }));
      saveTextFile(detail.filename, detail.content);
    } catch {
      // Spec §8: a failed XMP download is ignored silently.
    } finally {
      setDownloading(false);
    }
  };

  return (
    <Paper variant="outlined" sx={{ px: 2, py: 1 }}>
      <Stack
        direction={{ xs: 'column', md: 'row' }}
        spacing={{ xs: 1, md: 2 }}
        sx={{ alignItems: { xs: 'flex-start', md: 'center' }, justifyContent: 'space-between' }}
      >
        <SaveIndicator store={store} />
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 1 }}>
          <FormControlLabel
            control={
              <Switch
                size="small"
                checked={hideUnset}
                onChange={(event) => onHideUnset(event.target.checked)}
                slotProps={{ input: { 'data-testid': 'xmp-hide-unset' } as Record<string, string> }}
              />
            }
            label={<Typography variant="body2">{t('hideUnset')}</Typography>}
            sx={{ mr: 1 }}
          />
          <Button
            variant="outlined"
            size="small"
            startIcon={
              downloading ? <CircularProgress size={16} color="inherit" /> : <FileDownloadOutlinedIcon />
            }
            onClick={() => void downloadXmp()}
            disabled={downloading}
            data-testid="xmp-download"
          >
            {t('downloadXmp')}
          </Button>
          <Button
            variant="outlined"
            color="error"
            size="small"
            startIcon={<DeleteSweepOutlinedIcon />}
            onClick={onClear}
            disabled={!canWrite}
            data-testid="xmp-clear"
          >
            {t('clear')}
          </Button>
        </Stack>
      </Stack>
    </Paper>
  );
}

function CategoryLabel({ label, count }: { label: string; count: number }) {
  return (
    <Stack direction="row" spacing={0.75} sx={{ alignItems: 'center' }}>
      <span>{label}</span>
      {count > 0 && (
        <Box
          component="span"
          sx={{
            minWidth: 20,
            height: 20,
            px: 0.75,
            borderRadius: 10,
            fontSize: 11,
            fontWeight: 700,
            lineHeight: '20px',
            textAlign: 'center',
            bgcolor: 'rgba(31,79,179,0.1)',
            color: 'primary.dark',
          }}
        >
          {count}
        </Box>
      )}
    </Stack>
  );
}

function PropertyList({
  properties,
  values,
  hideUnset,
  onShowAll,
}: {
  properties: XmpProperty[];
  values: XmpValues;
  hideUnset: boolean;
  onShowAll: () => void;
}) {
  const { t } = useTranslation('metadataTab');
  const [category, setCategory] = useState(0);
  const [filter, setFilter] = useState('');
  const byCategory = useMemo(
    () => categoryKeys.map((_key, index) => propertiesOfCategory(properties, index)),
    [properties],
  );
  const filtering = filter.trim() !== '';
  // A filter searches every category; without one the tab decides.
  const candidates = filtering ? byCategory.flat() : (byCategory[category] ?? []);
  const shown = candidates.filter(
    (property) => matchesFilter(property, filter) && (!hideUnset || isPropertySet(values, property.id)),
  );

  return (
    <Card>
      <Box sx={{ borderBottom: 1, borderColor: 'divider' }}>
        <Tabs
          value={filtering ? false : category}
          onChange={(_event, next: number) => {
            setCategory(next);
            setFilter('');
          }}
          variant="scrollable"
          scrollButtons="auto"
          aria-label={t('title')}
          sx={{ px: 1, minHeight: 48 }}
        >
          {categoryKeys.map((key, index) => (
            <Tab
              key={key}
              value={index}
              label={
                <CategoryLabel
                  label={t(`categories.${key}`)}
                  count={countSet(values, byCategory[index] ?? [])}
                />
              }
              sx={{ minHeight: 48, minWidth: 0, px: 1.5, textTransform: 'none', fontWeight: 600 }}
              data-testid={`xmp-category-${index}`}
            />
          ))}
        </Tabs>
      </Box>
      <Box sx={{ px: { xs: 1.5, sm: 2 }, pt: 1.5 }}>
        <TextField
          size="small"
          value={filter}
          onChange={(event) => setFilter(event.target.value)}
          placeholder={t('filter')}
          sx={{ maxWidth: 360 }}
          slotProps={{
            htmlInput: { 'aria-label': t('filter'), 'data-testid': 'xmp-filter' },
            input: {
              startAdornment: (
                <InputAdornment position="start">
                  <SearchIcon fontSize="small" />
                </InputAdornment>
              ),
              endAdornment: filtering ? (
                <InputAdornment position="end">
                  <IconButton
                    size="small"
                    edge="end"
                    aria-label={t('clearFilter')}
                    onClick={() => setFilter('')}
                  >
                    <CloseIcon fontSize="small" />
                  </IconButton>
                </InputAdornment>
              ) : undefined,
            },
          }}
        />
      </Box>
      <Stack spacing={1.5} sx={{ p: { xs: 1.5, sm: 2 } }} data-testid="xmp-property-list">
        {shown.map((property) => (
          <PropertyCard key={property.id} property={property} mode={modeOf(values, property.id)} />
        ))}
        {shown.length === 0 && (
          <Box sx={{ py: 5, textAlign: 'center' }} data-testid="xmp-empty">
            <Typography color="text.secondary">{filtering ? t('noMatch') : t('emptyCategory')}</Typography>
            {hideUnset && (
              <Button sx={{ mt: 1 }} onClick={onShowAll}>
                {t('showAll')}
              </Button>
            )}
          </Box>
        )}
      </Stack>
    </Card>
  );
}

function LoadingSkeleton() {
  return (
    <Stack spacing={2} data-testid="xmp-loading">
      <Skeleton variant="rounded" height={50} />
      <Grid container spacing={2}>
        <Grid size={{ xs: 12, lg: 8 }}>
          <Stack spacing={1.5}>
            <Skeleton variant="rounded" height={48} />
            {[0, 1, 2, 3].map((index) => (
              <Skeleton key={index} variant="rounded" height={128} />
            ))}
          </Stack>
        </Grid>
        <Grid size={{ xs: 12, lg: 4 }}>
          <Skeleton variant="rounded" height={220} />
        </Grid>
      </Grid>
    </Stack>
  );
}

type Props = { teamUuid: string; projectId: number; canWrite: boolean };

export function MetadataEditor({ teamUuid, projectId, canWrite }: Props) {
  const { t, i18n } = useTranslation('metadataTab');
  const debug = useDebugMode();
  const properties = useXmpProperties(teamUuid);
  const valuesQuery = useXmpValues(teamUuid, projectId);
  const store = useMetadataEditor(teamUuid, projectId);
  const clear = useClearXmpValues(teamUuid, projectId);
  const [confirmClear, setConfirmClear] = useState(false);
  const [clearing, setClearing] = useState(false);
  const [hideUnset, setHideUnset] = useState(readHideUnset);
  const values = valuesQuery.data;
  const index = useValueIndex(values?.xmpvalues ?? []);
  const language = i18n.resolvedLanguage === 'de' ? 'de' : 'en';

  const context = useMemo<MetadataContextValue | null>(
    () => (values ? { teamUuid, projectId, canWrite, debug, language, values, index, store } : null),
    [teamUuid, projectId, canWrite, debug, language, values, index, store],
  );

  const changeHideUnset = (hide: boolean) => {
    setHideUnset(hide);
    try {
      localStorage.setItem(hideUnsetKey, hide ? '1' : '0');
    } catch {
      // Without storage the choice lasts for this visit.
    }
  };

  if (properties.error || valuesQuery.error) {
    return (
      <Paper variant="outlined">
        <StatusPanel
          icon={<CloudOffOutlinedIcon />}
          tone="error"
          title={t('loadFailed')}
          text={errorText(properties.error ?? valuesQuery.error)}
          actions={
            <Button
              variant="contained"
              onClick={() => {
                void properties.refetch();
                void valuesQuery.refetch();
              }}
            >
              {t('retry')}
            </Button>
          }
        />
      </Paper>
    );
  }
  if (!properties.data || !context || !values) return <LoadingSkeleton />;

  return (
    <MetadataProvider value={context}>
      <Stack spacing={2} data-testid="metadata-tab">
        {!canWrite && (
          <Alert severity="info" variant="outlined">
            {t('readOnly')}
          </Alert>
        )}
        <Toolbar hideUnset={hideUnset} onHideUnset={changeHideUnset} onClear={() => setConfirmClear(true)} />
        <Grid container spacing={2} sx={{ alignItems: 'flex-start' }}>
          <Grid size={{ xs: 12, lg: 8 }}>
            <PropertyList
              properties={properties.data}
              values={values}
              hideUnset={hideUnset}
              onShowAll={() => changeHideUnset(false)}
            />
          </Grid>
          <Grid size={{ xs: 12, lg: 4 }} sx={sideColumn}>
            <Stack spacing={2}>
              <XmpUploadCard />
              <TestImageCard teamUuid={teamUuid} projectId={projectId} flush={() => store.flush()} />
            </Stack>
          </Grid>
        </Grid>
      </Stack>
      <ConfirmDialog
        open={confirmClear}
        title={t('clearTitle')}
        message={t('clearConfirm')}
        confirmLabel={t('clear')}
        cancelLabel={t('cancel')}
        busy={clearing}
        onConfirm={async () => {
          setClearing(true);
          try {
            // The empty template wins over edits still waiting to be saved.
            await store.settle();
            await clear.mutateAsync();
            setConfirmClear(false);
          } catch {
            // The global error text reports the failure; the dialog stays for another try.
          } finally {
            setClearing(false);
          }
        }}
        onClose={() => setConfirmClear(false)}
        testId="xmp-clear-confirm"
      />
    </MetadataProvider>
  );
}
