import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { hasExtension, splitPositionedError } from './files.ts';

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
});

describe('file types', () => {
  it('matches extensions case-insensitively', () => {
    assert.ok(hasExtension('Template.XMP', ['.xmp']));
    assert.ok(hasExtension('pic.jpeg', ['.jpg', '.jpeg']));
    assert.ok(!hasExtension('pic.xmp.json', ['.xmp']));
  });
});
