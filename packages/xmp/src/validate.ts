// Checks for the metadata inputs of the UI and the API (spec §5: values up to 1024 characters).
// Browser-safe: no Node APIs.
import { limits } from '@photorelay/contract/limits';
import type { FieldDef, IimMapping } from './catalog-types.ts';
import { normalizeDateInput } from './dates.ts';

export type ValueProblemCode = 'tooLong' | 'notNumber' | 'notInteger' | 'notDate' | 'notUri';

export type ValueCheck = { valid: true } | { valid: false; code: ValueProblemCode; message: string };

/** Variables and code replacements are resolved per picture, so their syntax is not checked. */
const hasPlaceholder = /\{[A-Za-z][A-Za-z0-9_]*(?::[^{}]*)?\}|=[A-Za-z0-9_.-]{1,64}(?:#\d{1,3})?=/;

export function validateValue(def: FieldDef, value: string): ValueCheck {
  if (value.length > limits.metadataValue) {
    return {
      valid: false,
      code: 'tooLong',
      message: `at most ${limits.metadataValue} characters (${value.length} given)`,
    };
  }
  const text = value.trim();
  if (text === '' || hasPlaceholder.test(text)) return { valid: true };
  switch (def.valueFormat) {
    case 'number':
      return /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(text) ||
        /^[+-]?\d+\/\d+$/.test(text) ||
        /^\d+,\d+(\.\d+)?[NSEW]$/.test(text)
        ? { valid: true }
        : { valid: false, code: 'notNumber', message: 'a number is expected' };
    case 'integer':
      return /^[+-]?\d+$/.test(text)
        ? { valid: true }
        : { valid: false, code: 'notInteger', message: 'a whole number is expected' };
    case 'date-time':
      return normalizeDateInput(text)
        ? { valid: true }
        : {
            valid: false,
            code: 'notDate',
            message: 'a date is expected (YYYY-MM-DD, optionally with time, or DD.MM.YYYY)',
          };
    case 'uri':
    case 'url':
      return /^[A-Za-z][A-Za-z0-9+.-]*:\S+$/.test(text)
        ? { valid: true }
        : { valid: false, code: 'notUri', message: 'a URI such as https://… is expected' };
    default:
      return { valid: true };
  }
}

const encoder = new TextEncoder();

export function utf8Length(value: string): number {
  return encoder.encode(value).length;
}

export function iimLimitMessage(title: string, iim: IimMapping, value: string): string {
  return `${title} is ${utf8Length(value)} bytes; IPTC-IIM ${iim.name} (${iim.record}:${iim.dataset}) holds ${iim.maxBytes} bytes, so IIM gets a shortened value and XMP the full text`;
}

/** Message when a value will not fit its IPTC-IIM dataset (it is then cut there, kept whole in XMP). */
export function iimLimitWarning(def: FieldDef & { iim?: IimMapping }, value: string): string | undefined {
  const maxBytes = def.iim?.maxBytes;
  if (!def.iim || maxBytes === undefined || utf8Length(value) <= maxBytes) return undefined;
  return iimLimitMessage(def.title.en, def.iim, value);
}
