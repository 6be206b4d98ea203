// An entry's `flags` is a bitmask; the team's own list (api/calendar-flags.ts) names the bits
// (issue 27 item 8). The spec's §3 list is every team's start; its flags show translated until
// renamed (`preset`, i18n calendar.flags.<key>).
import { eventFlags } from '@photorelay/contract/calendar';
import { limits } from '@photorelay/contract/limits';
import type { TFunction } from 'i18next';
import type { TeamFlag } from '../../api/calendar-flags.ts';

export { eventFlags };

export const hasFlag = (flags: number, bit: number) => (flags & (1 << bit)) !== 0;

export const withFlag = (flags: number, bit: number, on: boolean) => {
  if (bit < 0 || bit > limits.flagBitMax)
    throw new RangeError(`flag bit ${bit} outside 0..${limits.flagBitMax}`);
  return on ? flags | (1 << bit) : flags & ~(1 << bit);
};

/** Set bits among the team's flags (or among all bits without the list). */
export const countFlags = (flags: number, bits?: readonly number[]) => {
  let count = 0;
  for (let bit = 0; bit <= limits.flagBitMax; bit++)
    if (hasFlag(flags, bit) && (!bits || bits.includes(bit))) count++;
  return count;
};

/** A flag's name as the page shows it: a default one in the page's language, the team's own as typed. */
export const flagLabel = (t: TFunction<'calendar'>, flag: Pick<TeamFlag, 'name' | 'preset'>) =>
  flag.preset ? t(`flags.${flag.preset}`) : flag.name;
