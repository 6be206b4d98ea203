/**
 * Every FTP/SFTP path goes through here before it reaches the backend. An account sees a
 * virtual root '/'; the backend gets root-relative paths ('' = root, 'DCIM/IMG_1.JPG').
 * Anything that could leave the root is refused rather than clamped, so a client never ends up
 * somewhere it did not ask for: '..' above the root, '.'/'..' written percent-encoded (a later
 * URL-decoding step must not turn a name into traversal), NUL and other control characters,
 * and over-long names. Bidirectional controls (right-to-left overrides, isolates) are replaced
 * by '_' instead (issue 25): 'IMG\u202Egpj.JPG' would show as 'IMGJPG.jpg' on every screen that
 * lists it, and replacing keeps the camera's picture where refusing would lose it.
 */

export class PathError extends Error {}

const MAX_SEGMENT_BYTES = 255;
const MAX_PATH_CHARS = 1024;
// C0 controls and DEL; NUL is the classic truncation trick.
const CONTROL = /\p{Cc}/u;
// U+061C, U+200E/F, U+202A–U+202E, U+2066–U+2069: they reorder how a name is shown.
const BIDI_CONTROL = /\p{Bidi_Control}/gu;

function decodesToDots(segment: string): boolean {
  if (!segment.includes('%')) return false;
  let decoded = segment;
  // Decode repeatedly: '%252e' is '%2e' after one pass and '.' after two.
  for (let i = 0; i < 3 && decoded.includes('%'); i++) {
    try {
      decoded = decodeURIComponent(decoded);
    } catch {
      return false;
    }
  }
  return decoded === '.' || decoded === '..' || /[/\\]/.test(decoded) || CONTROL.test(decoded);
}

/**
 * Resolves `input` (absolute within the virtual root, or relative to `cwd`) to a normalized
 * root-relative path. `cwd` is itself a normalized root-relative path. Throws PathError.
 */
export function resolveVirtualPath(cwd: string, input: string | null | undefined): string {
  const raw = input ?? '';
  if (raw.length > MAX_PATH_CHARS) throw new PathError('Path too long');
  if (CONTROL.test(raw)) throw new PathError('Invalid character in path');
  // Windows clients send backslashes; treat them as separators (as ftp-srv does) and check the parts.
  const path = raw.replace(/\\/g, '/').replace(BIDI_CONTROL, '_');
  const parts = path.startsWith('/') ? [] : cwd.split('/').filter(Boolean);
  for (const segment of path.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      if (parts.length === 0) throw new PathError('Path outside of the home folder');
      parts.pop();
      continue;
    }
    if (decodesToDots(segment)) throw new PathError('Invalid file name');
    if (Buffer.byteLength(segment) > MAX_SEGMENT_BYTES) throw new PathError('File name too long');
    parts.push(segment);
  }
  return parts.join('/');
}

/** '/'-rooted form shown to clients (PWD, MKD replies, SFTP REALPATH). */
export function toClientPath(relative: string): string {
  return `/${relative}`;
}

/** Splits 'a/b/c.jpg' into ['a/b', 'c.jpg']; the root has no name. */
export function splitPath(relative: string): [dir: string, name: string] {
  const at = relative.lastIndexOf('/');
  return at < 0 ? ['', relative] : [relative.slice(0, at), relative.slice(at + 1)];
}
