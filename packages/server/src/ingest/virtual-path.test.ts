import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PathError, resolveVirtualPath, splitPath, toClientPath } from './virtual-path.ts';

test('relative, absolute and dotted paths resolve inside the root', () => {
  assert.equal(resolveVirtualPath('', 'DCIM/100CANON/IMG_0001.JPG'), 'DCIM/100CANON/IMG_0001.JPG');
  assert.equal(resolveVirtualPath('DCIM', '100CANON'), 'DCIM/100CANON');
  assert.equal(resolveVirtualPath('DCIM/100CANON', '/x.jpg'), 'x.jpg');
  assert.equal(resolveVirtualPath('DCIM/100CANON', '../101CANON/./a.jpg'), 'DCIM/101CANON/a.jpg');
  assert.equal(resolveVirtualPath('DCIM', '..'), '');
  assert.equal(resolveVirtualPath('', '//a///b/'), 'a/b');
  assert.equal(resolveVirtualPath('', 'a\\b.jpg'), 'a/b.jpg');
  assert.equal(resolveVirtualPath('a', null), 'a');
  assert.equal(resolveVirtualPath('', '100%25 sure.jpg'), '100%25 sure.jpg');
});

test('anything that leaves the root or hides traversal is refused', () => {
  for (const bad of [
    '..',
    '../x',
    '/../x',
    'a/../../x',
    '..\\x',
    '%2e%2e/x',
    '%2E%2E',
    'a/%252e%252e/x',
    '.%2e/x',
    '%2f..%2fx',
    'a\u0000b',
    'a\nb',
    'a\rb',
    'x'.repeat(256),
    'a/'.repeat(600),
  ]) {
    assert.throws(() => resolveVirtualPath('', bad), PathError, JSON.stringify(bad));
  }
});

test('client paths and splitting', () => {
  assert.equal(toClientPath(''), '/');
  assert.equal(toClientPath('a/b'), '/a/b');
  assert.deepEqual(splitPath('a/b/c.jpg'), ['a/b', 'c.jpg']);
  assert.deepEqual(splitPath('c.jpg'), ['', 'c.jpg']);
});
