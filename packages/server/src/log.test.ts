import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { test } from 'node:test';
import { createLog } from './log.ts';

const capture = (isTTY: boolean) => {
  const out = Object.assign(new PassThrough(), { isTTY });
  const chunks: string[] = [];
  out.on('data', (chunk: Buffer) => chunks.push(chunk.toString()));
  return { out, text: () => chunks.join('') };
};
const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

test('a terminal gets pretty lines, anything else JSON', async () => {
  const tty = capture(true);
  createLog('info', tty.out).info({ port: 8080 }, 'listening');
  await settle();
  assert.match(tty.text(), /INFO.*listening/);
  assert.doesNotMatch(tty.text(), /^\{/);
  assert.doesNotMatch(tty.text(), /"hostname"/);

  const file = capture(false);
  createLog('info', file.out).info({ port: 8080 }, 'listening');
  await settle();
  const line = JSON.parse(file.text().trim());
  assert.deepEqual([line.msg, line.port, line.level], ['listening', 8080, 30]);
});
