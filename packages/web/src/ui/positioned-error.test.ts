import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { splitPositionedError } from './positioned-error.ts';

describe('processimage errors (spec §7: position and message joined by <||||>)', () => {
  it('splits position and message', () => {
    assert.deepEqual(splitPositionedError('offset 1234<||||>JPEG segment too long'), {
      position: 'offset 1234',
      message: 'JPEG segment too long',
    });
  });

  it('keeps a plain text as the message', () => {
    assert.deepEqual(splitPositionedError('The test image is no longer available'), {
      message: 'The test image is no longer available',
    });
    assert.deepEqual(splitPositionedError('<||||>only a message'), { message: 'only a message' });
  });

  it("gives a script error's line for marking it in the source", () => {
    assert.deepEqual(splitPositionedError('3:7<||||>unexpected token'), {
      position: '3:7',
      line: 3,
      message: 'unexpected token',
    });
  });
});
