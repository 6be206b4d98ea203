import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { accreditations, type bookingStates } from '../../api/calendar.ts';
import { bookingActions, bookingWords, chipColors, chipTone } from './booking-rules.ts';

describe('booking rules (spec §4)', () => {
  it('offers accept and cancel while not accepted', () => {
    for (const bookingState of ['unset', 'canceled', 'rejected'] as const) {
      const actions = bookingActions({ bookingState, accreditation: 'notaccredited' });
      assert.deepEqual(
        actions.map((action) => action.change),
        [{ bookingState: 'accepted' }, { bookingState: 'canceled' }],
      );
    }
  });

  it('offers every accreditation but the current one, and cancel back to unset, once accepted', () => {
    for (const accreditation of accreditations) {
      const actions = bookingActions({ bookingState: 'accepted', accreditation });
      const offered = actions.flatMap((action) => action.change.accreditation ?? []);
      assert.deepEqual(
        offered,
        accreditations.filter((value) => value !== accreditation),
      );
      assert.deepEqual(actions.at(-1)?.change, { bookingState: 'unset' });
    }
  });

  it('colours chips as the spec says', () => {
    const tone = (bookingState: (typeof bookingStates)[number], accreditation = 'notaccredited' as const) =>
      chipTone({ bookingState, accreditation });
    assert.equal(tone('unset'), 'lightblue');
    assert.equal(tone('rejected'), 'grey');
    assert.equal(tone('canceled'), 'grey');
    assert.equal(tone('accepted'), 'red');
    assert.equal(chipTone({ bookingState: 'accepted', accreditation: 'requested' }), 'yellow');
    assert.equal(chipTone({ bookingState: 'accepted', accreditation: 'processing' }), 'orange');
    assert.equal(chipTone({ bookingState: 'accepted', accreditation: 'accredited' }), 'green');
    assert.equal(chipTone({ bookingState: 'accepted', accreditation: 'permanently' }), 'green');
    // Every tone has its own background.
    const backgrounds = new Set(Object.values(chipColors).map((colors) => colors.bg));
    assert.equal(backgrounds.size, Object.keys(chipColors).length);
  });
});

describe('booking states in words (issue 27 item 4)', () => {
  it('says one state per booking, the agency decision before the answer, for the photographer and the agency', () => {
    const invited = { bookingState: 'unset', accreditation: 'notaccredited', answer: 'open' } as const;
    assert.equal(bookingWords({ ...invited, answer: 'accepted' }, { own: true }), 'state.youAccepted');
    assert.equal(bookingWords({ ...invited, answer: 'accepted' }, { own: false }), 'state.accepted');
    assert.equal(bookingWords(invited, { own: true }), 'state.youInvited');
    assert.equal(bookingWords({ ...invited, answer: 'rejected' }, { own: true }), 'state.youDeclined');
    assert.equal(
      bookingWords(
        { bookingState: 'accepted', accreditation: 'requested', answer: 'accepted' },
        { own: true },
      ),
      'state.booked.requested',
    );
    assert.equal(
      bookingWords(
        { bookingState: 'canceled', accreditation: 'notaccredited', answer: 'accepted' },
        { own: false },
      ),
      'state.bookingCancelled',
    );
    // A cancelled event outranks a booking that was accredited.
    assert.equal(
      bookingWords(
        { bookingState: 'accepted', accreditation: 'accredited', answer: 'accepted' },
        { own: true, eventCancelled: true },
      ),
      'state.eventCancelled',
    );
  });
});
