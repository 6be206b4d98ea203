// Spec §2 'Route guard': the `debug` query parameter switches debug mode on (1, true) or off
// (0, false); the choice is kept for the browser session.
import { useSyncExternalStore } from 'react';

const storageKey = 'photorelay.debug';
const listeners = new Set<() => void>();

/** true / false for a recognised value, undefined when the parameter says nothing. */
export function parseDebugParam(value: string | null): boolean | undefined {
  if (value === null) return undefined;
  const normalized = value.trim().toLowerCase();
  if (normalized === '1' || normalized === 'true') return true;
  if (normalized === '0' || normalized === 'false') return false;
  return undefined;
}

export function isDebugMode(): boolean {
  try {
    return sessionStorage.getItem(storageKey) === '1';
  } catch {
    return false;
  }
}

/** Reads `debug` from a query string and stores the result for the session. */
export function applyDebugParam(search: string): void {
  const wanted = parseDebugParam(new URLSearchParams(search).get('debug'));
  if (wanted === undefined || wanted === isDebugMode()) return;
  try {
    if (wanted) sessionStorage.setItem(storageKey, '1');
    else sessionStorage.removeItem(storageKey);
  } catch {
    // Storage can be disabled; debug mode then simply stays off.
  }
  for (const listener of listeners) listener();
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

export const useDebugMode = () => useSyncExternalStore(subscribe, isDebugMode, () => false);
