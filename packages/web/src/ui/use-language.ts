import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useStoreLanguage, useUserInfo } from '../api/account.ts';
import { type AppLanguage, currentLanguage } from '../i18n/i18n.ts';

/**
 * Set when someone picks a language while signed out (the sign-in page's switch): that choice is
 * newer than the one stored with the account, so signing in stores it instead of replacing it.
 */
let pickedWhileSignedOut = false;

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
    if (!info.data?.logged_in) pickedWhileSignedOut = true;
    else if (info.data.language !== next) store.mutate(next);
  };
  return { language, setLanguage };
};

/**
 * Once per signed-in user and page load (sign-in or a restored session), the UI takes the language
 * stored with the account, so a member who chose German sees German on a new browser too. Later
 * switches store themselves (useLanguage), so UI and account stay in step.
 */
export function useAccountLanguage() {
  const { i18n } = useTranslation();
  const info = useUserInfo();
  const store = useStoreLanguage();
  const userId = info.data?.logged_in ? info.data.id : undefined;
  const stored = info.data?.logged_in ? info.data.language : undefined;
  const appliedFor = useRef<number | undefined>(undefined);
  const storeLanguage = useRef(store.mutate);
  storeLanguage.current = store.mutate;

  useEffect(() => {
    if (userId === undefined) {
      appliedFor.current = undefined;
      return;
    }
    if (!stored || appliedFor.current === userId) return;
    appliedFor.current = userId;
    const shown = currentLanguage();
    if (pickedWhileSignedOut) {
      pickedWhileSignedOut = false;
      if (shown !== stored) storeLanguage.current(shown);
    } else if (shown !== stored) void i18n.changeLanguage(stored);
  }, [userId, stored, i18n]);
}
