import assert from 'node:assert/strict';
import os from 'node:os';
import { test } from 'node:test';
import { ConfigError, loadConfig } from './config.ts';

const base = { DATA_DIR: os.tmpdir(), SECRET_KEY: 'a'.repeat(64) };

test('defaults match the README table', () => {
  const c = loadConfig(base);
  assert.equal(c.PORT, 8080);
  assert.equal(c.SEED_DEMO, true, 'the one-command demo seeds');
  assert.equal(loadConfig({ ...base, NODE_ENV: 'production' }).SEED_DEMO, false, 'production does not');
  assert.equal(loadConfig({ ...base, NODE_ENV: 'production', SEED_DEMO: '1' }).SEED_DEMO, true);
  assert.equal(loadConfig({ ...base, SEED_DEMO: '0' }).SEED_DEMO, false);
  assert.equal(c.DEBUG_ADMIN, false);
  assert.equal(c.ALLOW_PRIVATE_NETWORKS, false);
  assert.equal(c.DATABASE_URL, undefined);
  assert.equal(c.publicUrl, 'http://localhost:8080');
  assert.deepEqual(c.TRUST_PROXY, [], 'no proxy is trusted unless named');
  assert.deepEqual(
    loadConfig({ ...base, TRUST_PROXY: '10.0.0.1, 192.168.0.0/16,loopback,::1' }).TRUST_PROXY,
    ['10.0.0.1', '192.168.0.0/16', 'loopback', '::1'],
  );
  assert.equal(c.REQUIRE_TLS, false);
  assert.equal(c.PASV_MAX_PER_ACCOUNT, 32);
  assert.equal(c.PASV_MAX_PER_ADDRESS, 16);
  // Half of the default range 30000-30100 (101 ports), unless set.
  assert.equal(c.PASV_MAX_PER_TEAM, 50);
  assert.equal(loadConfig({ ...base, PASV_PORTS: '40000-40009' }).PASV_MAX_PER_TEAM, 5);
  assert.equal(loadConfig({ ...base, PASV_MAX_PER_TEAM: '7' }).PASV_MAX_PER_TEAM, 7);
  assert.equal(c.PASV_WAIT_MS, 2000);
  assert.equal(c.SCRIPT_THREADS, 2);
  assert.equal(c.SCRIPT_THREADS_PER_TEAM, 1);
  assert.equal(c.INGEST_MAX_CONNECTIONS_PER_ADDRESS, 100);
  assert.equal(c.HTTP_REQUEST_TIMEOUT_SECONDS, 120);
  assert.equal(c.HTTP_HEADERS_TIMEOUT_SECONDS, 30);
  assert.equal(c.SFTP_UPLOAD_STALL_SECONDS, 60);
  assert.equal(c.STORAGE_FULL_RETRY_SECONDS, 30);
  assert.equal(c.ORPHAN_FILE_AGE_SECONDS, 3600);
});

test('a wrong value names the setting in one line', () => {
  for (const [key, value] of [
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['DATABASE_URL', 'mysql://x'],
    ['SEED_DEMO', 'yes'],
    ['SMTP_URL', 'http://mail'],
    ['SECRET_KEY', 'short'],
    ['PUBLIC_URL', 'not a url'],
    ['TRUST_PROXY', '10.0.0.1, example.com'],
    ['TRUST_PROXY', '10.0.0.0/33'],
  ]) {
    assert.throws(
      () => loadConfig({ ...base, [key]: value }),
      (error: unknown) =>
        error instanceof ConfigError && error.message.split('\n').length === 1 && error.message.includes(key),
      `${key}=${value}`,
    );
  }
});

test('a secret key is generated once into DATA_DIR', () => {
  const dir = `${os.tmpdir()}/pr-config-${process.pid}`;
  const first = loadConfig({ DATA_DIR: dir }).secretKey;
  const second = loadConfig({ DATA_DIR: dir }).secretKey;
  assert.equal(first.length, 32);
  assert.deepEqual(first, second);
});
