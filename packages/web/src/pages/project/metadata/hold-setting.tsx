// Issue 15: the project setting "hold pictures that cannot be stamped". Off: such a picture is
// delivered as it came and its jobs say so; on: its jobs wait as 'held' until released.
import { useTranslation } from 'react-i18next';
import { useMetadataSettings, useSaveMetadataSettings } from '../../../api/metadata-settings.ts';
import { type ProjectSettingProps, SettingSwitch } from './setting-switch.tsx';

export function HoldSetting({ teamUuid, projectId, canWrite }: ProjectSettingProps) {
  const { t } = useTranslation('metadataTab');
  const settings = useMetadataSettings(teamUuid, projectId);
  const save = useSaveMetadataSettings(teamUuid, projectId);
  return (
    <SettingSwitch
      id="hold-unstampable"
      label={t('holdUnstampable.label')}
      help={t('holdUnstampable.help')}
      checked={settings.data?.holdUnstampable ?? false}
      disabled={!canWrite || settings.isPending || save.isPending}
      onChange={(holdUnstampable) => save.mutate({ holdUnstampable })}
    />
  );
}
