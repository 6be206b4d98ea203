// Issue 28 item 5: a template variable a picture had no value for ("{photographer} had no value
// for camera serial 1234"), worded in the reader's language: the server's sentence (a stamp
// warning, packages/xmp/src/variables.ts emptyVariableNote) read back, or the picture log's field.
import { useTranslation } from 'react-i18next';

/** `serial` '' = the picture names no camera serial; absent = not a {photographer} problem. */
export type EmptyVariable = { name: string; serial?: string };

const note =
  /^\{([A-Za-z][A-Za-z0-9_]*)\} had no value(?: for camera serial (.+)|(: the picture names no camera serial))?/;

/** The variable a stamp warning names, or undefined for any other warning. */
export function emptyVariableOf(warning: string): EmptyVariable | undefined {
  const match = note.exec(warning);
  if (!match?.[1]) return undefined;
  if (match[2] !== undefined) return { name: match[1], serial: match[2] };
  return match[3] ? { name: match[1], serial: '' } : { name: match[1] };
}

/** "{photographer} had no value for camera serial 1234" in the current language. */
export function useEmptyVariableText() {
  const { t } = useTranslation('metadataTab');
  return ({ name, serial }: EmptyVariable) => {
    const variable = `{${name}}`;
    if (serial === undefined) return t('emptyVariable.other', { variable });
    return serial === ''
      ? t('emptyVariable.noSerial', { variable })
      : t('emptyVariable.serial', { variable, serial });
  };
}
