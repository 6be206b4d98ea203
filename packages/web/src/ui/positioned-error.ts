// A failed script or image upload's error: position and message joined by '<||||>' (spec §7).
import { errorPositionSeparator } from '@photorelay/contract/metadata';

export type PositionedFailure = { position?: string; line?: number; message: string };

/** 'line 3:7<||||>bad token' -> position (and its line) and message; a plain text is all message. */
export function splitPositionedError(text: string): PositionedFailure {
  const at = text.indexOf(errorPositionSeparator);
  if (at < 0) return { message: text };
  const position = text.slice(0, at).trim();
  const line = /(\d+):\d+$/.exec(position)?.[1];
  return {
    message: text.slice(at + errorPositionSeparator.length).trim(),
    ...(position ? { position } : {}),
    ...(line ? { line: Number(line) } : {}),
  };
}
