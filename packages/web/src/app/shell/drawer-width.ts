// Spec §2/§9: the drawer is resizable between 120 and 400 px (default 200); the chosen width is
// remembered in localStorage.
import { limits } from '@photorelay/contract/limits';

const storageKey = 'photorelay.drawerWidth';

export const clampDrawerWidth = (width: number) =>
  Number.isFinite(width)
    ? Math.round(Math.min(limits.drawerMax, Math.max(limits.drawerMin, width)))
    : limits.drawerDefault;

export function loadDrawerWidth(): number {
  try {
    const stored = localStorage.getItem(storageKey);
    return stored === null ? limits.drawerDefault : clampDrawerWidth(Number(stored));
  } catch {
    return limits.drawerDefault;
  }
}

export function saveDrawerWidth(width: number): void {
  try {
    localStorage.setItem(storageKey, String(clampDrawerWidth(width)));
  } catch {
    // Without storage the width just is not remembered.
  }
}
