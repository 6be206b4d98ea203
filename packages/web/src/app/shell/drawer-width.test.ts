import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { clampDrawerWidth } from './drawer-width.ts';

describe('drawer width (spec §9)', () => {
  it('stays between 120 and 400 px', () => {
    assert.equal(clampDrawerWidth(50), 120);
    assert.equal(clampDrawerWidth(250.4), 250);
    assert.equal(clampDrawerWidth(900), 400);
    assert.equal(clampDrawerWidth(Number.NaN), 200);
  });
});
