import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { accreditations, type bookingStates } from '../../api/calendar.ts';
import { bookingActions, chipColors, chipTone } from './booking-rules.ts';

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
