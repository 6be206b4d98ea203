// Issue 13: the project setting "stamp the booked event". On: a picture shot during a booked
// event of the team calendar gets the event's fields where the template leaves them unset.
import { useTranslation } from 'react-i18next';
import { useEventStamping, useSaveEventStamping } from '../../../api/externalcalendars.ts';
import { type ProjectSettingProps, SettingSwitch } from './setting-switch.tsx';

export function EventStampSetting({ teamUuid, projectId, canWrite }: ProjectSettingProps) {
  const { t } = useTranslation('externalCalendars');
  const setting = useEventStamping(teamUuid, projectId);
  const save = useSaveEventStamping(teamUuid, projectId);
  return (
    <SettingSwitch
      id="event-stamping"
      label={t('eventStamp.label')}
      help={t('eventStamp.help')}
      checked={setting.data?.eventStamping ?? false}
      disabled={!canWrite || setting.isPending || save.isPending}
      onChange={(eventStamping) => save.mutate({ eventStamping })}
    />
  );
}
