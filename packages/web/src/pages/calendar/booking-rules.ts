// Spec §4 'Booking state': what a booking's menu offers and the colour of its chip.

import { bookingChipColour, type ChipColour } from '@photorelay/contract/calendar';
import type { ParseKeys } from 'i18next';
import type { Booking, BookingChange, BookingState } from '../../api/calendar.ts';
import { accreditations } from '../../api/calendar.ts';

/** One entry of a booking's menu: the change it sends and the i18n key of its label. */
export type BookingAction = {
  key: string;
  label: ParseKeys<'calendar'>;
  change: Pick<BookingChange, 'bookingState' | 'accreditation'>;
};

export function bookingActions(booking: Pick<Booking, 'bookingState' | 'accreditation'>): BookingAction[] {
  if (booking.bookingState !== 'accepted') {
    return [
      { key: 'accept', label: 'booking.accept', change: { bookingState: 'accepted' } },
      { key: 'cancel', label: 'booking.cancel', change: { bookingState: 'canceled' } },
    ];
  }
  return [
    ...accreditations
      .filter((value) => value !== booking.accreditation)
      .map(
        (value): BookingAction => ({
          key: value,
          label: `accreditation.${value}` as const,
          change: { accreditation: value },
        }),
      ),
    // 'Cancel booking' on an accepted booking returns it to unset (spec §4).
    { key: 'cancel', label: 'booking.cancel', change: { bookingState: 'unset' as BookingState } },
  ];
}

export type ChipTone = ChipColour;

/** The contract's rule (spec §4), shared with the server's tests. */
export const chipTone = (booking: Pick<Booking, 'bookingState' | 'accreditation'>): ChipTone =>
  bookingChipColour(booking.bookingState, booking.accreditation);

/**
 * The chip colours (background, text); the e2e test asserts the backgrounds as computed rgb(). Red
 * and green are dark enough for white text (WCAG AA 4.5:1: 5.6 and 5.1; the lighter ones had 4.2 and 3.3).
 */
export const chipColors: Record<ChipTone, { bg: string; fg: string }> = {
  lightblue: { bg: 'rgb(173, 216, 230)', fg: 'rgb(12, 52, 77)' },
  grey: { bg: 'rgb(189, 189, 189)', fg: 'rgb(33, 33, 33)' },
  red: { bg: 'rgb(198, 40, 40)', fg: 'rgb(255, 255, 255)' },
  yellow: { bg: 'rgb(253, 216, 53)', fg: 'rgb(51, 41, 0)' },
  orange: { bg: 'rgb(251, 140, 0)', fg: 'rgb(33, 20, 0)' },
  green: { bg: 'rgb(46, 125, 50)', fg: 'rgb(255, 255, 255)' },
};

/**
 * One state per booking, in words (issue 27 item 4): the agency's decision first (booked and how
 * far the accreditation is, cancelled, not booked), else the photographer's own answer. `own`
 * words it for the photographer himself ("You accepted – waiting for the agency"); a cancelled
 * event outranks every booking state.
 */
export function bookingWords(
  booking: Pick<Booking, 'bookingState' | 'accreditation' | 'answer'>,
  { own, eventCancelled = false }: { own: boolean; eventCancelled?: boolean },
): ParseKeys<'calendar'> {
  if (eventCancelled) return 'state.eventCancelled';
  switch (booking.bookingState) {
    case 'accepted':
      return `state.booked.${booking.accreditation}`;
    case 'canceled':
      return 'state.bookingCancelled';
    case 'rejected':
      return 'state.notBooked';
    case 'unset':
      if (booking.answer === 'accepted') return own ? 'state.youAccepted' : 'state.accepted';
      if (booking.answer === 'rejected') return own ? 'state.youDeclined' : 'state.declined';
      return own ? 'state.youInvited' : 'state.invited';
  }
}

/** The legend of the chip colours (spec §4), each with the states it stands for. */
export const chipLegend: readonly { tone: ChipTone; label: ParseKeys<'calendar'> }[] = [
  { tone: 'lightblue', label: 'legend.lightblue' },
  { tone: 'red', label: 'legend.red' },
  { tone: 'yellow', label: 'legend.yellow' },
  { tone: 'orange', label: 'legend.orange' },
  { tone: 'green', label: 'legend.green' },
  { tone: 'grey', label: 'legend.grey' },
];
