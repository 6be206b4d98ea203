// Spec §3 'Event flags by bit id': 17 named bits of an entry's `flags` (labels in i18n by name).
import { eventFlags } from '@photorelay/contract/calendar';
import { limits } from '@photorelay/contract/limits';

export { eventFlags };

export const hasFlag = (flags: number, bit: number) => (flags & (1 << bit)) !== 0;

export const withFlag = (flags: number, bit: number, on: boolean) => {
  if (bit < 0 || bit > limits.flagBitMax)
    throw new RangeError(`flag bit ${bit} outside 0..${limits.flagBitMax}`);
  return on ? flags | (1 << bit) : flags & ~(1 << bit);
};

export const countFlags = (flags: number) => eventFlags.filter((_, bit) => hasFlag(flags, bit)).length;
