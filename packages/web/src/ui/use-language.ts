import { useTranslation } from 'react-i18next';
import { useStoreLanguage, useUserInfo } from '../api/account.ts';
import type { AppLanguage } from '../i18n/i18n.ts';

/**
 * The app's language and how to switch it. A signed-in user's choice is also stored with the
 * account (issue 27 item 5): their mails and calendar feed follow it, whoever sends them.
 */
export const useLanguage = () => {
  const { i18n } = useTranslation();
  const info = useUserInfo();
  const store = useStoreLanguage();
  const language: AppLanguage = i18n.resolvedLanguage === 'de' ? 'de' : 'en';
  const setLanguage = (next: AppLanguage) => {
    // changeLanguage also stores the choice in this browser (detector cache in localStorage).
    void i18n.changeLanguage(next);
    if (info.data?.logged_in && info.data.language !== next) store.mutate(next);
  };
  return { language, setLanguage };
};
