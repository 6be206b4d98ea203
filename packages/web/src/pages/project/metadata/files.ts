// Browser file helpers of the metadata tab: reading a dropped file, saving a text as a download,
// and the parts of a processimage error (spec §7: position and message joined by '<||||>').
import { errorPositionSeparator } from '@photorelay/contract/metadata';

export function readAsDataUrl(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error('The file could not be read'));
    reader.readAsDataURL(file);
  });
}

/** Offers `content` as a file download without a round trip to the server. */
export function saveTextFile(filename: string, content: string, type = 'application/rdf+xml'): void {
  const url = URL.createObjectURL(new Blob([content], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** 'offset 12<||||>bad segment' -> position and message; a plain text is all message. */
export function splitPositionedError(text: string): { position?: string; message: string } {
  const at = text.indexOf(errorPositionSeparator);
  if (at < 0) return { message: text };
  const position = text.slice(0, at).trim();
  const message = text.slice(at + errorPositionSeparator.length).trim();
  return position ? { position, message } : { message };
}

export const hasExtension = (name: string, extensions: readonly string[]) =>
  extensions.some((extension) => name.toLowerCase().endsWith(extension));
