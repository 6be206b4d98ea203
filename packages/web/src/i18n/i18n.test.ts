// Both locales must hold the same non-empty keys, and the spec's texts must be there word for word
// (spec §2, §5, §8): English texts in en (translated in de), German texts in both.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';

type Tree = { [key: string]: string | Tree };
const readJson = (file: string) => JSON.parse(readFileSync(new URL(file, import.meta.url), 'utf8')) as Tree;
/** The resources as i18n.ts assembles them: the main file plus the metadata tab's and the calendar's namespaces. */
const load = (lang: string): Tree => ({
  ...readJson(`./${lang}.json`),
  metadataTab: readJson(`./metadata.${lang}.json`),
  calendar: readJson(`./calendar.${lang}.json`),
  scriptTab: readJson(`./scripts.${lang}.json`),
  externalCalendars: readJson(`./externalcalendars.${lang}.json`),
});
const en = load('en');
const de = load('de');

function flatten(tree: Tree, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') out.set(path, value);
    else for (const [k, v] of flatten(value, path)) out.set(k, v);
  }
  return out;
}

const enKeys = flatten(en);
const deKeys = flatten(de);
const placeholders = (text: string) => [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort();
const tags = (text: string) => [...text.matchAll(/<(\w+)>/g)].map((m) => m[1]).sort();

/** English spec texts: must be in en; de must translate them. */
const englishSpecTexts = [
  'Sign in',
  'Sign up',
  'Logout',
  'Reload',
  'FAILED',
  'Processing',
  'A problem has been detected and the app has been shut down. You need to reload the page.',
  'You are currently not a member of a team.',
  'Your account is being set up. Please retry in some minutes.',
  'Username or password incorrect.',
  'Please verify your email.',
  'Required.',
  'Invalid e-mail.',
  'At least 5 characters',
  'Passwords are not equal',
  'The email is already in use.',
  'Too many requests - please wait some minutes and try again.',
  'Failed to send email - please check your email address and try again.',
  'Something went WRONG!',
  'invalid parameters',
  'Something went wrong - please try again',
  'invalid user id',
  'Port must be between 1 and 65535',
  // 'Success!!!' became a calm sentence (issue 28).
  'Invalid date - expecting date in dd.mm.yyyy format',
  'Invalid time - expecting time in hh:mm format',
  'Invitation pending',
  'No Group',
  'Add User',
  'Edit user',
  'User already in team.',
  'User added to team',
  'An invitation was sent',
  'Something went wrong.',
  'Something went wrong:',
  'File uploaded',
  'File upload failed',
  'File size should be less than 100 KB!',
  'File must be of type .xmp or .json',
  'Really clear the whole meta data of this project?',
  'Do you really want to remove the script from this project?',
  'Script upload finished.',
  'Hide unset values',
  'Download XMP',
  'Image Content',
  'Image Location',
  'Location Taken/Shown',
  'Image Rights',
  'Off',
  'Replace',
  'Append',
  'Prepend',
  'Merge',
  'Time',
  'Event',
  'Bookings',
  'Location',
  'Accept booking',
  'Cancel booking',
  'read only',
  'read and write',
  'administrate',
  'read/write',
  'UNKNOWN',
  // Screens of the tree, users, folders, config files, projects and FTP servers.
  'Move this item',
  'Account',
  'Groups',
  'Group',
  'Accreditation number',
  'Invite',
  'File',
  'Size',
  'Date',
  'read',
  'Test',
  'Save',
  'starting',
  'running',
  'failed',
  'succeeded',
  'last try failed ({{error}})',
  'scheduled at {{time}}',
];

/**
 * German spec texts (spec §5, §8): word for word in de; the English UI shows an English
 * equivalent (issue 16: both readings served).
 */
const germanSpecTexts = [
  'Team wechseln',
  'Keine gültige Email Adresse',
  'Benutzer entfernen',
  'Der Benutzer wird aus dem Projekt entfernt.',
  'Entfernen',
  'Abbrechen',
  'Datei entfernen',
  'Die Datei wird unwiderruflich entfernt.',
  'Der Projektname darf nicht leer sein.',
  'Der Ordner wird permanent gelöscht.',
  'Das Projekt wird permanent gelöscht.',
  'Der Ftp-Server wird permanent gelöscht.',
  'Möchten Sie den FTP-Server wirklich löschen?',
  'XMP-Datei konnte nicht geladen werden: {{error}}',
  'XMP-Datei wurde hochgeladen.',
];

/** Words that are the same in both languages. */
const sameInGerman = new Set(['Name', 'PhotoRelay']);

const keysWithValue = (keys: Map<string, string>, text: string) =>
  [...keys].filter(([, value]) => value === text).map(([key]) => key);

describe('i18n resources', () => {
  it('en and de have the same keys', () => {
    const missingInDe = [...enKeys.keys()].filter((key) => !deKeys.has(key));
    const missingInEn = [...deKeys.keys()].filter((key) => !enKeys.has(key));
    assert.deepEqual(missingInDe, [], 'keys missing in de.json');
    assert.deepEqual(missingInEn, [], 'keys missing in en.json');
  });

  it('no text is empty', () => {
    for (const [lang, keys] of [
      ['en', enKeys],
      ['de', deKeys],
    ] as const) {
      const empty = [...keys].filter(([, value]) => value.trim() === '').map(([key]) => key);
      assert.deepEqual(empty, [], `empty texts in ${lang}.json`);
    }
  });

  it('translations keep their placeholders and markup', () => {
    for (const [key, value] of enKeys) {
      const other = deKeys.get(key) ?? '';
      assert.deepEqual(placeholders(other), placeholders(value), `placeholders differ at ${key}`);
      assert.deepEqual(tags(other), tags(value), `markup differs at ${key}`);
    }
  });

  it('has every English spec text word for word in en and translates it in de', () => {
    for (const text of englishSpecTexts) {
      const keys = keysWithValue(enKeys, text);
      assert.ok(keys.length > 0, `en.json lacks spec text '${text}'`);
      for (const key of keys) {
        const german = deKeys.get(key);
        if (!sameInGerman.has(text))
          assert.notEqual(german, text, `de.json does not translate '${text}' at ${key}`);
      }
    }
  });

  it('has every German spec text word for word in de and an English reading in en', () => {
    for (const text of germanSpecTexts) {
      const keys = keysWithValue(deKeys, text);
      assert.ok(keys.length > 0, `de.json lacks spec text '${text}'`);
      for (const key of keys) {
        const english = enKeys.get(key);
        assert.ok(english, `en.json lacks ${key}`);
        assert.notEqual(english, text, `en.json shows the German '${text}' at ${key}`);
      }
    }
  });

  it('uses the German labels the spec gives for de', () => {
    assert.equal(deKeys.get('users.columns.groups'), 'Gruppen');
    assert.equal(enKeys.get('users.columns.groups'), 'Groups');
  });

  it('names the tree roots and settings entries in both languages (spec §2)', () => {
    const labels = {
      projects: 'Projekte',
      ftpservers: 'FTP-Server',
      calendars: 'Kalender',
      settings: 'Einstellungen',
      users: 'Benutzer',
      configfiles: 'Konfigurationsdateien',
    };
    for (const [type, german] of Object.entries(labels))
      assert.equal(deKeys.get(`shell.tree.labels.${type}`), german);
    assert.equal(enKeys.get('shell.tree.labels.projects'), 'Projects');
    assert.equal(enKeys.get('shell.tree.labels.users'), 'Users');
  });

  it('says that duplicates are not sent again', () => {
    assert.equal(enKeys.get('jobs.states.duplicate'), 'duplicate – not sent again');
    assert.equal(deKeys.get('jobs.states.duplicate'), 'Duplikat – nicht erneut gesendet');
  });

  it('keeps the legal texts German in both languages with every figure of spec §1', () => {
    for (const document of ['imprint', 'privacy', 'terms', 'operatorFallback', 'lastUpdated']) {
      assert.deepEqual(
        (en.legal as Tree)[document],
        (de.legal as Tree)[document],
        `legal.${document} must be identical (German) in both files`,
      );
    }
    const legal = [...flatten(de.legal as Tree).values()].join('\n');
    for (const figure of [
      'Zahlungsdienstleister für Karten- und Wallet-Zahlungen',
      'auf unbestimmte Zeit',
      '14 Tagen',
      'mindestens 60 Tage',
      'per E-Mail angekündigt',
      'höchstens 30 Tage',
      '4 Jahre',
      '10 Jahre',
      '6 Jahre',
      'bis zu zwei Jahre',
      'Server',
      'Deutschland',
    ]) {
      assert.ok(legal.includes(figure), `legal texts lack '${figure}'`);
    }
  });

  it('says what the marketing text must say (spec §1)', () => {
    const landing = [...flatten(en.landing as Tree).values()].join('\n');
    assert.match(landing, /easy and fast way to transfer/i);
    assert.match(landing, /Servers in Germany/);
    assert.match(landing, /free evaluation account/i);
  });
});
