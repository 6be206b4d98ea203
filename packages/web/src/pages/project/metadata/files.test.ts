import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { hasExtension } from './files.ts';

describe('file types', () => {
  it('matches extensions case-insensitively', () => {
    assert.ok(hasExtension('Template.XMP', ['.xmp']));
    assert.ok(hasExtension('pic.jpeg', ['.jpg', '.jpeg']));
    assert.ok(!hasExtension('pic.xmp.json', ['.xmp']));
  });
});
