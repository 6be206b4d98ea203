// Issue 28 item 5: the project setting "hold pictures with an empty variable". Off (default): such
// a picture is sent with the variable left empty and the job log warns; on: its jobs wait as
// 'held' until released, like pictures that cannot be stamped (hold-setting.tsx).
import { useTranslation } from 'react-i18next';
import { useMetadataSettings, useSaveMetadataSettings } from '../../../api/metadata-settings.ts';
import { type ProjectSettingProps, SettingSwitch } from './setting-switch.tsx';

export function VariableHoldSetting({ teamUuid, projectId, canWrite }: ProjectSettingProps) {
  const { t } = useTranslation('metadataTab');
  const settings = useMetadataSettings(teamUuid, projectId);
  const save = useSaveMetadataSettings(teamUuid, projectId);
  return (
    <SettingSwitch
      id="hold-unresolved-variables"
      label={t('holdUnresolvedVariables.label')}
      help={t('holdUnresolvedVariables.help')}
      checked={settings.data?.holdUnresolvedVariables ?? false}
      disabled={!canWrite || settings.isPending || save.isPending}
      onChange={(holdUnresolvedVariables) => save.mutate({ holdUnresolvedVariables })}
    />
  );
}
