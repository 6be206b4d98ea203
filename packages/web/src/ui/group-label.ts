// Team groups (spec §3 'Group'): shown by their localized name (Team Owner, Operator, Photographer).
import { useTranslation } from 'react-i18next';

type NamedGroup = { name: string; localizedName: string };

/** The group's name in the user's language; unknown groups keep the server's wording. */
export function useGroupLabel() {
  const { t } = useTranslation('users');
  return (group: NamedGroup) =>
    t(`groupNames.${group.name}`, { defaultValue: group.localizedName || group.name });
}
