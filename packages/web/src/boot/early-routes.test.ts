import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { earlyKey, earlyRoutes } from './early-routes.ts';

const webDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

describe('early routes (issue 28 item 8)', () => {
  it('name code files that exist', () => {
    for (const [route, { modules }] of Object.entries(earlyRoutes))
      for (const module of modules)
        assert.ok(fs.existsSync(path.join(webDir, module)), `${route}: ${module}`);
  });

  it('key a request by method, path and body, whatever the order of its fields', () => {
    assert.equal(earlyKey('POST', 'p', { b: 1, a: 2 }), earlyKey('POST', 'p', { a: 2, b: 1, c: undefined }));
    assert.notEqual(earlyKey('POST', 'p', { a: 1 }), earlyKey('POST', 'p', { a: 2 }));
    assert.notEqual(earlyKey('GET', 'p'), earlyKey('POST', 'p'));
    assert.equal(earlyKey('POST', 'p'), earlyKey('POST', 'p', {}));
  });

  it('ask for a project tab only with a project id', () => {
    const data = earlyRoutes['/project/protocol']!.data!;
    assert.deepEqual(data(new URLSearchParams('id=abc'), ''), []);
    assert.deepEqual(
      data(new URLSearchParams('id=7'), '').map((r) => `${r.method} ${r.path}`),
      ['GET project/7', 'POST pictures/25/0'],
    );
    assert.deepEqual(
      data(new URLSearchParams('id=7&view=deliveries'), '').map((r) => r.path),
      ['project/7'],
    );
  });
});
