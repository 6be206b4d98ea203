// The character rules of XML 1.0 the parser and the serializer share: what XML cannot carry,
// what ends a name, whitespace, and entity and character references.
import { MetadataError } from './errors.ts';

// Characters XML 1.0 cannot carry at all, and lone UTF-16 surrogates that UTF-8 cannot encode.
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding the control characters XML forbids is the point
const invalidXmlChars = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;
const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
// biome-ignore lint/suspicious/noControlCharactersInRegex: as above
const needsSanitizing = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uD800-\uDFFF\uFFFE\uFFFF]/;

/**
 * Removes what XML cannot represent (control characters some writers leave in captions) and
 * replaces lone surrogates. Applied when reading and when writing, so a round trip is exact.
 */
export function sanitizeXmlText(value: string): string {
  if (!needsSanitizing.test(value)) return value; // the common case, one cheap scan
  return value.replace(invalidXmlChars, '').replace(loneSurrogate, '\uFFFD');
}

const predefinedEntities: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

export function xmlError(message: string, position: number): never {
  throw new MetadataError('INVALID_XML', `${message} at offset ${position}`);
}

export function isWhitespace(code: number): boolean {
  return code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d;
}

/** A name: everything but markup delimiters, quotes and whitespace (XMP names are ASCII anyway). */
const nameEnds = new Uint8Array(128);
for (const ch of ' \t\n\r\v\f<>/="\'&?!') nameEnds[ch.charCodeAt(0)] = 1;
export const isNameChar = (code: number): boolean =>
  code < 128 ? nameEnds[code] === 0 : !/\s/.test(String.fromCharCode(code));

/** Where the name that starts at `from` ends (`from` itself when there is none). */
export function nameEnd(src: string, from: number): number {
  let end = from;
  for (; end < src.length; end++) {
    const code = src.charCodeAt(end);
    if (code < 128 ? nameEnds[code] !== 0 : !isNameChar(code)) break;
  }
  return end;
}

function isXmlChar(code: number): boolean {
  return (
    code === 0x9 ||
    code === 0xa ||
    code === 0xd ||
    (code >= 0x20 && code <= 0xd7ff) ||
    (code >= 0xe000 && code <= 0xfffd) ||
    (code >= 0x10000 && code <= 0x10ffff)
  );
}

/** Replaces entity and character references; refuses unknown entities. */
export function decodeEntities(raw: string, position = 0): string {
  if (!raw.includes('&')) return raw;
  let out = '';
  let last = 0;
  let amp = raw.indexOf('&');
  while (amp >= 0) {
    const semi = raw.indexOf(';', amp);
    if (semi < 0 || semi - amp > 12) xmlError('unterminated entity reference', position + amp);
    const name = raw.slice(amp + 1, semi);
    let replacement: string | undefined;
    if (name.startsWith('#')) {
      const hex = name[1] === 'x';
      const digits = name.slice(hex ? 2 : 1);
      const valid = hex ? /^[0-9a-fA-F]+$/.test(digits) : /^[0-9]+$/.test(digits);
      const code = valid ? Number.parseInt(digits, hex ? 16 : 10) : Number.NaN;
      if (!isXmlChar(code)) xmlError(`invalid character reference &${name};`, position + amp);
      replacement = String.fromCodePoint(code);
    } else {
      replacement = predefinedEntities[name];
      if (replacement === undefined) xmlError(`unknown entity &${name};`, position + amp);
    }
    out += raw.slice(last, amp) + replacement;
    last = semi + 1;
    amp = raw.indexOf('&', last);
  }
  return out + raw.slice(last);
}
