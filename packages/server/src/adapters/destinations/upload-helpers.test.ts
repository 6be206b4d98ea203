import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isTemporaryName, temporaryName } from './upload-helpers.ts';

test('temporary names are hidden, tagged with the job or random, and recognized', () => {
  assert.equal(temporaryName('IMG_1.JPG', 'job42'), '.IMG_1.JPG.job42.part');
  assert.match(temporaryName('IMG_1.JPG'), /^\.IMG_1\.JPG\.[0-9a-f]{8}\.part$/);
  // A tag that is no plain word is not put into a remote file name.
  assert.match(temporaryName('IMG_1.JPG', '../x'), /^\.IMG_1\.JPG\.[0-9a-f]{8}\.part$/);
  for (const name of [temporaryName('a.jpg', 'job7'), temporaryName('a.jpg')])
    assert.ok(isTemporaryName(name));
  for (const name of ['IMG_1.JPG', '.IMG_1.JPG', 'IMG_1.JPG.part', '.a.jpg.job 7.part'])
    assert.equal(isTemporaryName(name), false, name);
});
