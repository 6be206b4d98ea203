// i18next setup: en is default and fallback, de the second locale. The language comes from the
// browser (or, signed in, the account), can be switched in the app and is remembered in localStorage.
import i18next from 'i18next';
import LanguageDetector from 'i18next-browser-languagedetector';
import { initReactI18next } from 'react-i18next';
import calendarDe from './calendar.de.json';
import calendarEn from './calendar.en.json';
import de from './de.json';
import en from './en.json';
import externalCalendarsDe from './externalcalendars.de.json';
import externalCalendarsEn from './externalcalendars.en.json';
import jobLogDe from './joblog.de.json';
import jobLogEn from './joblog.en.json';
import metadataDe from './metadata.de.json';
import metadataEn from './metadata.en.json';
import picturesDe from './pictures.de.json';
import picturesEn from './pictures.en.json';
import plainErrorsDe from './plain-errors.de.json';
import plainErrorsEn from './plain-errors.en.json';
import scriptsDe from './scripts.de.json';
import scriptsEn from './scripts.en.json';

export const supportedLanguages = ['en', 'de'] as const;
export type AppLanguage = (typeof supportedLanguages)[number];
export const languageStorageKey = 'photorelay.language';

// The metadata tab keeps its texts in files of its own (namespace metadataTab), and so do the
// calendar (namespace calendar; its files replace the calendar block of en.json/de.json) and the
// script tab (scriptTab), the external calendars (externalCalendars), the pictures (pictures) and the plain
// sentences for technical errors (plainErrors), the job log (jobLog).
export const resources = {
  en: {
    ...en,
    metadataTab: metadataEn,
    calendar: calendarEn,
    scriptTab: scriptsEn,
    externalCalendars: externalCalendarsEn,
    pictures: picturesEn,
    plainErrors: plainErrorsEn,
    jobLog: jobLogEn,
  },
  de: {
    ...de,
    metadataTab: metadataDe,
    calendar: calendarDe,
    scriptTab: scriptsDe,
    externalCalendars: externalCalendarsDe,
    pictures: picturesDe,
    plainErrors: plainErrorsDe,
    jobLog: jobLogDe,
  },
} as const;
export const namespaces = Object.keys(resources.en) as (keyof typeof resources.en)[];

export const currentLanguage = (): AppLanguage => (i18next.resolvedLanguage === 'de' ? 'de' : 'en');

void i18next
  .use(LanguageDetector)
  .use(initReactI18next)
  .init({
    resources,
    ns: namespaces,
    defaultNS: 'common',
    fallbackLng: 'en',
    supportedLngs: [...supportedLanguages],
    nonExplicitSupportedLngs: true,
    load: 'languageOnly',
    initAsync: false,
    interpolation: { escapeValue: false },
    returnNull: false,
    detection: {
      order: ['localStorage', 'navigator'],
      lookupLocalStorage: languageStorageKey,
      // Only a person's own choice is remembered (useLanguage writes it): a browser without one
      // shows the language stored with the account once signed in (ui/use-language.ts).
      caches: [],
    },
  });

const syncDocumentLanguage = () => {
  document.documentElement.lang = currentLanguage();
};
syncDocumentLanguage();
i18next.on('languageChanged', syncDocumentLanguage);

export default i18next;

// Keys are type-checked: a missing or misspelt key (in en, which de mirrors, see i18n.test.ts)
// fails `tsc`.
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'common';
    resources: (typeof resources)['en'];
  }
}
