import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useStoreLanguage, useUserInfo } from '../api/account.ts';
import { type AppLanguage, currentLanguage, languageStorageKey } from '../i18n/i18n.ts';

/** The language the person chose in this browser, if they did (storage may be blocked). */
function chosenHere(): string | null {
  try {
    return localStorage.getItem(languageStorageKey);
  } catch {
    return null;
  }
}

function rememberHere(language: AppLanguage) {
  try {
    localStorage.setItem(languageStorageKey, language);
  } catch {
    // Private mode without storage: the choice lasts for this page.
  }
}

/**
 * Set when someone picks a language while signed out (the sign-in page's switch): that choice is
 * newer than the one stored with the account, so signing in stores it.
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
    rememberHere(next);
    void i18n.changeLanguage(next);
    if (!info.data?.logged_in) pickedWhileSignedOut = true;
    else if (info.data.language !== next) store.mutate(next);
  };
  return { language, setLanguage };
};

/**
 * On sign-in and on a restored session, a browser where the person never chose a language shows
 * the one stored with the account: a member who chose German sees German on a new browser too. A
 * choice made in this browser stays (and one made on the sign-in page is stored at sign-in).
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
    } else if (chosenHere() === null && shown !== stored) void i18n.changeLanguage(stored);
  }, [userId, stored, i18n]);
}
