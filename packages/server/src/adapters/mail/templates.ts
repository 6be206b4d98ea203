import { limits } from '@photorelay/contract/limits';

export type Language = 'en' | 'de';

export const asLanguage = (value: string | null | undefined): Language => (value === 'de' ? 'de' : 'en');

/** A link's lifetime as the mails quote it ("within 48 hours", "innerhalb einer Stunde"). */
const hours = (n: number) => ({
  en: n === 1 ? 'one hour' : `${n} hours`,
  de: n === 1 ? 'einer Stunde' : `von ${n} Stunden`,
});
const days = (n: number) => ({
  en: n === 1 ? 'one day' : `${n} days`,
  de: n === 1 ? 'eines Tages' : `von ${n} Tagen`,
});
/** The lifetimes the tokens really have (contract/limits.ts). */
const lifetime = {
  verify: hours(limits.verifyTokenHours),
  reset: hours(limits.resetTokenHours),
  invite: days(limits.invitationTokenDays),
  calendar: days(limits.calendarInvitationTokenDays),
};

// Account mails in the user's language. `link` is always an absolute URL built from PUBLIC_URL.
const texts = {
  verify: {
    en: (link: string) => ({
      subject: 'PhotoRelay: please verify your e-mail address',
      text: `Welcome to PhotoRelay!\n\nPlease confirm your e-mail address by opening this link within ${lifetime.verify.en}:\n\n${link}\n\nIf you did not sign up, you can ignore this mail.\n`,
    }),
    de: (link: string) => ({
      subject: 'PhotoRelay: Bitte bestätigen Sie Ihre E-Mail-Adresse',
      text: `Willkommen bei PhotoRelay!\n\nBitte bestätigen Sie Ihre E-Mail-Adresse innerhalb ${lifetime.verify.de} über diesen Link:\n\n${link}\n\nWenn Sie sich nicht registriert haben, können Sie diese E-Mail ignorieren.\n`,
    }),
  },
  reset: {
    en: (link: string) => ({
      subject: 'PhotoRelay: reset your password',
      text: `Someone asked to reset the password of your PhotoRelay account.\n\nOpen this link within ${lifetime.reset.en} to choose a new password:\n\n${link}\n\nIf it was not you, ignore this mail; your password stays as it is.\n`,
    }),
    de: (link: string) => ({
      subject: 'PhotoRelay: Passwort zurücksetzen',
      text: `Für Ihr PhotoRelay-Konto wurde das Zurücksetzen des Passworts angefordert.\n\nÖffnen Sie diesen Link innerhalb ${lifetime.reset.de}, um ein neues Passwort zu wählen:\n\n${link}\n\nWenn Sie das nicht waren, ignorieren Sie diese E-Mail; Ihr Passwort bleibt unverändert.\n`,
    }),
  },
  invite: {
    en: (link: string, team: string) => ({
      subject: `PhotoRelay: you are invited to join ${team}`,
      text: `You have been invited to join the team "${team}" on PhotoRelay.\n\nOpen this link within ${lifetime.invite.en} to create your account:\n\n${link}\n`,
    }),
    de: (link: string, team: string) => ({
      subject: `PhotoRelay: Einladung in das Team ${team}`,
      text: `Sie wurden in das Team „${team}“ auf PhotoRelay eingeladen.\n\nÖffnen Sie diesen Link innerhalb ${lifetime.invite.de}, um Ihr Konto anzulegen:\n\n${link}\n`,
    }),
  },
  joinTeam: {
    en: (link: string, team: string) => ({
      subject: `PhotoRelay: you are invited to join ${team}`,
      text: `You have been invited to join the team "${team}" on PhotoRelay with your account.\n\nOpen this link within ${lifetime.invite.en} to accept; if you do not want to join, ignore this mail:\n\n${link}\n`,
    }),
    de: (link: string, team: string) => ({
      subject: `PhotoRelay: Einladung in das Team ${team}`,
      text: `Sie wurden mit Ihrem Konto in das Team „${team}“ auf PhotoRelay eingeladen.\n\nÖffnen Sie diesen Link innerhalb ${lifetime.invite.de}, um die Einladung anzunehmen; wenn Sie nicht beitreten möchten, ignorieren Sie diese E-Mail:\n\n${link}\n`,
    }),
  },
} as const;

export function accountMail(kind: 'verify' | 'reset', language: Language, link: string) {
  return texts[kind][language](link);
}

/** A team name on one line: a name with line breaks must not add lines or headers to a mail. */
const singleLine = (value: string) =>
  value
    .replace(/[\p{Cc}\p{Zl}\p{Zp}]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();

export function teamMail(kind: 'invite' | 'joinTeam', language: Language, link: string, team: string) {
  return texts[kind][language](link, singleLine(team));
}

// Calendar mails (issue 12). `event` is the entry's summary with its local date and time.
const calendarTexts = {
  invitation: {
    en: (link: string, team: string, event: string) => ({
      subject: `PhotoRelay: ${team} invites you to ${event}`,
      text: `The team "${team}" would like to book you for this event:\n\n${event}\n\nOpen this link within ${lifetime.calendar.en} to accept or decline:\n\n${link}\n`,
    }),
    de: (link: string, team: string, event: string) => ({
      subject: `PhotoRelay: ${team} lädt Sie ein: ${event}`,
      text: `Das Team „${team}“ möchte Sie für diesen Termin buchen:\n\n${event}\n\nÖffnen Sie diesen Link innerhalb ${lifetime.calendar.de}, um zuzusagen oder abzusagen:\n\n${link}\n`,
    }),
  },
  cancelled: {
    en: (link: string, team: string, event: string) => ({
      subject: `PhotoRelay: cancelled: ${event}`,
      text: `The team "${team}" has cancelled this event, for which you were booked:\n\n${event}\n\nCalendar: ${link}\n`,
    }),
    de: (link: string, team: string, event: string) => ({
      subject: `PhotoRelay: abgesagt: ${event}`,
      text: `Das Team „${team}“ hat diesen Termin abgesagt, für den Sie gebucht waren:\n\n${event}\n\nKalender: ${link}\n`,
    }),
  },
  changed: {
    en: (link: string, team: string, event: string) => ({
      subject: `PhotoRelay: changed: ${event}`,
      text: `The team "${team}" has changed this event, to which you are invited:\n\n${event}\n\nYour calendar app updates the entry from the attached invitation.\n\nCalendar: ${link}\n`,
    }),
    de: (link: string, team: string, event: string) => ({
      subject: `PhotoRelay: geändert: ${event}`,
      text: `Das Team „${team}“ hat diesen Termin geändert, zu dem Sie eingeladen sind:\n\n${event}\n\nIhre Kalender-App übernimmt die Änderung aus der angehängten Einladung.\n\nKalender: ${link}\n`,
    }),
  },
  uninvited: {
    en: (link: string, team: string, event: string) => ({
      subject: `PhotoRelay: booking cancelled: ${event}`,
      text: `The team "${team}" has cancelled your booking for this event:\n\n${event}\n\nCalendar: ${link}\n`,
    }),
    de: (link: string, team: string, event: string) => ({
      subject: `PhotoRelay: Buchung storniert: ${event}`,
      text: `Das Team „${team}“ hat Ihre Buchung für diesen Termin storniert:\n\n${event}\n\nKalender: ${link}\n`,
    }),
  },
} as const;

export function calendarMail(
  kind: keyof typeof calendarTexts,
  language: Language,
  link: string,
  team: string,
  event: string,
) {
  return calendarTexts[kind][language](link, team, event);
}
