import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { limits } from '@photorelay/contract/limits';
import { countFlags, eventFlags, hasFlag, withFlag } from './event-flags.ts';

describe('event flags (spec §3)', () => {
  it('names the bits 0 to 16', () => {
    assert.equal(eventFlags.length, limits.flagBitMax + 1);
  });

  it('sets and clears one bit without touching the others', () => {
    let flags = 0;
    flags = withFlag(flags, 0, true);
    flags = withFlag(flags, 16, true);
    assert.equal(flags, 1 + 65536);
    assert.equal(hasFlag(flags, 16), true);
    assert.equal(hasFlag(flags, 1), false);
    assert.equal(countFlags(flags), 2);
    assert.equal(withFlag(flags, 0, false), 65536);
    assert.throws(() => withFlag(flags, 17, true), RangeError);
  });
});
