import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { promisify } from 'node:util';

// Issue 30 item 1: the systemd unit in the repository is checked by systemd itself (Debian's
// systemd package brings systemd-analyze).
const run = promisify(execFile);
const deploy = path.resolve(import.meta.dirname, '../../../../deploy');

test('the systemd unit of the repository passes systemd-analyze verify', async () => {
  const unit = path.join(deploy, 'photorelay.service');
  const { stdout, stderr } = await run('systemd-analyze', ['verify', unit]);
  assert.equal(`${stdout}${stderr}`.trim(), '', 'no warnings');
  // And it would catch a broken one: the same unit with a typo in a directive.
  const broken = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'photorelay-unit-')), 'photorelay.service');
  fs.writeFileSync(broken, fs.readFileSync(unit, 'utf8').replace('ExecStart=', 'ExecStrat='));
  const checked = await run('systemd-analyze', ['verify', broken]).then(
    (r) => `${r.stdout}${r.stderr}`,
    (e: { stdout?: string; stderr?: string }) => `${e.stdout}${e.stderr}`,
  );
  assert.match(checked, /ExecStrat|Unknown key|Service has no ExecStart/);
});
