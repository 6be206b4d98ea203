// ftp-srv-internals.ts relies on parts of ftp-srv that are not its public API. The package is
// pinned to one exact version; this test fails when the installed copy differs from the one those
// parts were checked against, so an upgrade is a deliberate re-check, never a silent break.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { test } from 'node:test';
import { BaseConnector, defaultReplyTexts, formatListLine } from './ftp-srv-internals.ts';

const require = createRequire(import.meta.url);
const ftpSrvRoot = path.dirname(require.resolve('ftp-srv/package.json'));

/** The files whose internals are used, with their SHA-256 in ftp-srv 4.6.3. */
const checkedFiles: Record<string, string> = {
  'src/connection.js': '39f0c211321f71f86c04dd83cb439757e63aebd23239ac2fb23cf615fa7d5887',
  'src/connector/base.js': 'b1f47b7d830e96674ac003c7ffebe937a0f4c401168620f28f9cd020d71d7dfc',
  'src/commands/index.js': 'a7af933677a0bfccb51577f365ead4213d0a940be1beb70554c07ec87afcee84',
  'src/messages.js': '06f3b26f2d9b79fa2bda4abd792f742df136c579d5e08f97544153c67149a6b8',
  'src/helpers/file-stat.js': '136709e4629fa7dd5a4216a02fc857361d3e61522e0df0f27b13153ed7b7dfaf',
};

test('ftp-srv is the exact version whose internals the ingest uses', () => {
  const { version } = JSON.parse(fs.readFileSync(path.join(ftpSrvRoot, 'package.json'), 'utf8'));
  assert.equal(version, '4.6.3');
  for (const [file, sha256] of Object.entries(checkedFiles)) {
    const actual = createHash('sha256')
      .update(fs.readFileSync(path.join(ftpSrvRoot, file)))
      .digest('hex');
    assert.equal(actual, sha256, `ftp-srv/${file} changed: re-check ingest/ftp-srv-internals.ts`);
  }
});

test('the internal pieces have the shape ftp-srv-internals.ts declares', () => {
  for (const method of ['waitForConnection', 'closeSocket', 'closeServer', 'end']) {
    assert.equal(typeof BaseConnector.prototype[method as keyof typeof BaseConnector.prototype], 'function');
  }
  const Connection = require('ftp-srv/src/connection');
  for (const method of ['reply', 'close']) assert.equal(typeof Connection.prototype[method], 'function');
  const Commands = require('ftp-srv/src/commands');
  for (const method of ['parse', 'handle']) assert.equal(typeof Commands.prototype[method], 'function');
  assert.equal(typeof defaultReplyTexts[226], 'string');
  const line = formatListLine({ name: 'a.jpg', size: 3, mtime: new Date(0), isDirectory: () => false });
  assert.match(line, /a\.jpg$/);
});
