// The Active switch and the remove button every destination row ends with (issue 16 item 9:
// both confirm with a snackbar, removal asks first).
import { Switch, TableCell, Typography } from '@mui/material';
import { useSnackbar } from 'notistack';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { DestinationRef, useDestinationMutations } from '../../api/projects.ts';
import { ConfirmDialog } from '../../ui/confirm-dialog.tsx';
import { RemoveButton } from '../../ui/remove-button.tsx';

type Mutations = ReturnType<typeof useDestinationMutations>;

/**
 * The switch shows the click at once; the saved state follows from the server. (A switch driven
 * only by the query would spring back until the answer and the reload arrive.)
 */
function EnabledSwitch({
  enabled,
  disabled,
  label,
  onChange,
}: {
  enabled: boolean;
  disabled: boolean;
  label: string;
  onChange: (enabled: boolean) => void;
}) {
  const [checked, setChecked] = useState(enabled);
  useEffect(() => setChecked(enabled), [enabled]);
  return (
    <Switch
      checked={checked}
      disabled={disabled}
      onChange={(_event, next) => {
        setChecked(next);
        onChange(next);
      }}
      slotProps={{ input: { 'aria-label': label } }}
      data-testid="destination-enabled"
    />
  );
}

/** The switch and remove cells every destination row ends with, servers and projects alike. */
export function DestinationControls({
  destination,
  destinationRef,
  canWrite,
  mutations,
}: {
  destination: { name: string; enabled: boolean };
  destinationRef: DestinationRef;
  canWrite: boolean;
  mutations: Mutations;
}) {
  const { t } = useTranslation('projects');
  const { t: tc } = useTranslation('common');
  const { enqueueSnackbar } = useSnackbar();
  // Removal asks first (issue 16 item 9): one click must not stop deliveries.
  const [confirming, setConfirming] = useState(false);
  return (
    <>
      <TableCell align="center">
        {canWrite ? (
          <EnabledSwitch
            enabled={destination.enabled}
            disabled={false}
            label={t('destinations.enabled')}
            onChange={(enabled) =>
              mutations.change.mutate(
                { ref: destinationRef, change: { enabled } },
                {
                  onSuccess: () =>
                    enqueueSnackbar(
                      t(enabled ? 'destinations.switchedOn' : 'destinations.switchedOff', {
                        name: destination.name,
                      }),
                      { variant: 'success' },
                    ),
                },
              )
            }
          />
        ) : (
          <Typography variant="body2" data-testid="destination-enabled-text">
            {destination.enabled ? t('destinations.activeYes') : t('destinations.activeNo')}
          </Typography>
        )}
      </TableCell>
      {canWrite && (
        <TableCell align="right">
          <RemoveButton
            label={t('destinations.remove', { name: destination.name })}
            testId="destination-remove"
            onClick={() => setConfirming(true)}
          />
          <ConfirmDialog
            open={confirming}
            title={t('destinations.removeTitle')}
            message={t('destinations.removeQuestion', { name: destination.name })}
            confirmLabel={tc('actions.remove')}
            cancelLabel={tc('actions.cancel')}
            busy={mutations.remove.isPending}
            onClose={() => setConfirming(false)}
            onConfirm={() =>
              mutations.remove.mutate(destinationRef, {
                onSuccess: () => {
                  setConfirming(false);
                  enqueueSnackbar(t('destinations.removed', { name: destination.name }), {
                    variant: 'success',
                  });
                },
              })
            }
            testId="destination-remove-confirm"
          />
        </TableCell>
      )}
    </>
  );
}
