// Byte-to-text helpers shared by the IIM and EXIF readers.
const utf8Fatal = new TextDecoder('utf-8', { fatal: true });
const utf8 = new TextDecoder('utf-8');
// Node's TextDecoder treats 'windows-1252' as ISO-8859-1, so the 0x80-0x9F block is mapped here.
const cp1252High = '€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008DŽ\u008F\u0090‘’“”•–—˜™š›œ\u009DžŸ';

function decodeWindows1252(data: Uint8Array): string {
  let out = '';
  for (const byte of data)
    out += byte >= 0x80 && byte <= 0x9f ? cp1252High[byte - 0x80] : String.fromCharCode(byte);
  return out;
}

export function isValidUtf8(data: Uint8Array): boolean {
  try {
    utf8Fatal.decode(data);
    return true;
  } catch {
    return false;
  }
}

/** UTF-8 when the bytes are valid UTF-8, else Windows-1252 (which decodes any byte). */
export function decodeUtf8OrLegacy(data: Uint8Array): string {
  return isValidUtf8(data) ? utf8.decode(data) : decodeWindows1252(data);
}

export function decodeUtf8Lenient(data: Uint8Array): string {
  return utf8.decode(data);
}
