import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { configFileProblem } from '@photorelay/contract/configfiles';
import { replacedFileId } from './config-file-rules.ts';

describe('config file upload (spec §5)', () => {
  it('accepts .xmp and .json under 100,000 bytes, in any case', () => {
    assert.equal(configFileProblem('sport.json', 99_999), null);
    assert.equal(configFileProblem('Caption.XMP', 10), null);
  });

  it('refuses files of 100,000 bytes and more', () => {
    assert.equal(configFileProblem('sport.json', 100_000), 'tooLarge');
  });

  it('refuses other types', () => {
    assert.equal(configFileProblem('photo.jpg', 10), 'wrongType');
    assert.equal(configFileProblem('json', 10), 'wrongType');
  });

  it('replaces a file with the same name', () => {
    const files = [
      { name: 'sport.json', dbconfigfileid: 4 },
      { name: 'news.json', dbconfigfileid: 5 },
    ];
    assert.equal(replacedFileId(files, 'news.json'), 5);
    assert.equal(replacedFileId(files, 'Sport.JSON'), 4);
    assert.equal(replacedFileId(files, 'other.json'), undefined);
  });
});
