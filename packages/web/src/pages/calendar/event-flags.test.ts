import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { limits } from '@photorelay/contract/limits';
import { countFlags, eventFlags, hasFlag, withFlag } from './event-flags.ts';

describe('event flags (spec §3, issue 27 item 8)', () => {
  it("names the spec's bits 0 to 16 as the default list", () => {
    assert.equal(eventFlags.length, limits.specFlagBitMax + 1);
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
    // A team's own flags may use bits up to 30 (the entry's integer); bit 31 is its sign.
    assert.equal(hasFlag(withFlag(0, 30, true), 30), true);
    assert.throws(() => withFlag(flags, 31, true), RangeError);
  });

  it("counts only the team's flags when it has a list", () => {
    const flags = (1 << 0) | (1 << 16) | (1 << 20);
    assert.equal(countFlags(flags), 3);
    assert.equal(countFlags(flags, [0, 1, 20]), 2);
  });
});
