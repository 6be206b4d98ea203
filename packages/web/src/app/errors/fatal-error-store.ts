// The 'blue screen' state (spec §2 'General error dialog'): once shown it stays until reload.
import { useSyncExternalStore } from 'react';

let detail: string | null = null;
const listeners = new Set<() => void>();

export function showFatalError(error: unknown): void {
  if (detail !== null) return; // keep the first problem; later ones are usually its consequences
  detail = describeFatal(error);
  console.error('Fatal error', error);
  for (const listener of listeners) listener();
}

export function describeFatal(error: unknown): string {
  if (error instanceof Error) {
    if (!error.stack) return error.message;
    return error.stack.includes(error.message) ? error.stack : `${error.message}\n${error.stack}`;
  }
  if (typeof error === 'string') return error;
  try {
    return JSON.stringify(error);
  } catch {
    return String(error);
  }
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

export const useFatalError = () =>
  useSyncExternalStore(
    subscribe,
    () => detail,
    () => null,
  );
