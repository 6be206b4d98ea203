// The metadata tab of a project (spec §2 'Project tabs' Metadata; §4 modes and saving; §5 inputs;
// §8 texts): the toolbar (metadata-toolbar.tsx) with Clear and Download XMP, the XMP import,
// five category tabs of property cards (property-list.tsx), and the test image preview.
import CloudOffOutlinedIcon from '@mui/icons-material/CloudOffOutlined';
import { Alert, Button, Grid, Paper, Stack } from '@mui/material';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useClearXmpValues, type useXmpProperties, type useXmpValues } from '../../../api/metadata.ts';
import { ConfirmDialog } from '../../../ui/confirm-dialog.tsx';
import { useDebugMode } from '../../../ui/debug-mode.ts';
import { StatusPanel } from '../../../ui/page.tsx';
import { errorText } from './error-text.ts';
import { LoadingSkeleton } from './loading-skeleton.tsx';
import {
  type MetadataContextValue,
  MetadataProvider,
  useMetadataEditor,
  useValueIndex,
} from './metadata-context.tsx';
import { MetadataToolbar } from './metadata-toolbar.tsx';
import { PropertyList } from './property-list.tsx';
import { TestImageCard } from './test-image-preview.tsx';
import { VariableFieldsNotice } from './variable-fields.tsx';
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

type Props = {
  teamUuid: string;
  projectId: number;
  canWrite: boolean;
  /** The catalog and the project's values, fetched by the tab while this code loads. */
  properties: ReturnType<typeof useXmpProperties>;
  valuesQuery: ReturnType<typeof useXmpValues>;
};

export function MetadataEditor({ teamUuid, projectId, canWrite, properties, valuesQuery }: Props) {
  const { t, i18n } = useTranslation('metadataTab');
  const debug = useDebugMode();
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
        <MetadataToolbar
          hideUnset={hideUnset}
          onHideUnset={changeHideUnset}
          onClear={() => setConfirmClear(true)}
        />
        <VariableFieldsNotice />
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
