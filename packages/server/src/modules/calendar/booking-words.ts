import type { Language } from '../../adapters/mail/templates.ts';

// A booking's state in words, in the reader's language (issue 27 item 5): the per-member calendar
// feed and the invitation's .ics say what the web app's chips say.

const bookingStates = {
  en: { unset: 'invited', accepted: 'accepted', canceled: 'cancelled', rejected: 'declined' },
  de: { unset: 'eingeladen', accepted: 'zugesagt', canceled: 'storniert', rejected: 'abgelehnt' },
} as const;

const accreditations = {
  en: {
    notaccredited: 'not accredited',
    requested: 'accreditation requested',
    processing: 'accreditation in process',
    accredited: 'accredited',
    permanently: 'permanently accredited',
  },
  de: {
    notaccredited: 'nicht akkreditiert',
    requested: 'Akkreditierung beantragt',
    processing: 'Akkreditierung in Bearbeitung',
    accredited: 'akkreditiert',
    permanently: 'dauerhaft akkreditiert',
  },
} as const;

const label = { en: 'Booking', de: 'Buchung' } as const;

const pick = <T extends Record<string, string>>(words: T, key: string) =>
  Object.hasOwn(words, key) ? words[key as keyof T] : key;

/** "Booking: accepted (accreditation requested)" / "Buchung: zugesagt (Akkreditierung beantragt)". */
export function bookingLine(language: Language, state: string, accreditation: string | null) {
  const words = pick(bookingStates[language], state);
  const accreditationWords = accreditation ? ` (${pick(accreditations[language], accreditation)})` : '';
  return `${label[language]}: ${words}${accreditationWords}`;
}
