import assert from 'node:assert/strict';
import { test } from 'node:test';
import { causeOf } from './cause.ts';

test('a script error is the picture’s, with its script, line and message', () => {
  const cause = causeOf(
    "Script error: caption.script 2:5: cannot read property 'boom' of null",
    'Client FTP',
  );
  assert.equal(cause.code, 'script');
  assert.equal(cause.scope, 'picture');
  assert.deepEqual(cause.values, {
    script: 'caption.script',
    line: '2',
    message: "cannot read property 'boom' of null",
  });
});

test('a refused login names the destination and the reply code', () => {
  const cause = causeOf('530 Login incorrect.', 'Client FTP');
  assert.equal(cause.code, 'loginRefused');
  assert.equal(cause.scope, 'destination');
  assert.deepEqual(cause.values, { destination: 'Client FTP', reply: '530' });
});

test('a folder that could not be made names the folder, before the 550 says "no permission"', () => {
  const cause = causeOf('Folder in/2026 could not be created: 550 Create directory operation failed.', 'X');
  assert.equal(cause.code, 'folderNotCreated');
  assert.equal(cause.values.folder, 'in/2026');
});

test('unknown texts are "other" and keep the raw text', () => {
  const cause = causeOf('something odd', 'X');
  assert.equal(cause.code, 'other');
  assert.equal(cause.raw, 'something odd');
  assert.equal(causeOf('connect ECONNREFUSED 127.0.0.1:21', 'X').code, 'refused');
});
