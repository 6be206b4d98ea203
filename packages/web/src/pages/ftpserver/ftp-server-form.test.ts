import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkForm, emptyForm, portProblem, toBody, toTestBody } from './ftp-server-form.ts';

const filled = {
  ...emptyForm,
  name: 'Agency',
  host: 'ftp.example.com',
  username: 'press',
  password: 'secret',
};

describe('FTP server form (spec §5)', () => {
  it('accepts an empty port or 1 to 65535 in digits', () => {
    for (const port of ['', '1', '21', '2121', '65535']) assert.equal(portProblem(port), null, port);
    for (const port of ['0', '65536', '99999', '-1', '21a', '2.1', 'ftp'])
      assert.equal(portProblem(port), 'portInvalid', port);
  });

  it('needs name, host, username and password', () => {
    assert.equal(checkForm(filled, { passwordSet: false }).valid, true);
    assert.deepEqual(checkForm(emptyForm, { passwordSet: false }).missing, [
      'name',
      'host',
      'username',
      'password',
    ]);
    assert.equal(checkForm({ ...filled, name: '   ' }, { passwordSet: false }).valid, false);
    assert.equal(checkForm({ ...filled, host: '' }, { passwordSet: false }).valid, false);
    assert.equal(checkForm({ ...filled, username: '' }, { passwordSet: false }).valid, false);
  });

  it('takes the stored password when the field is empty', () => {
    assert.equal(checkForm({ ...filled, password: '' }, { passwordSet: false }).valid, false);
    assert.equal(checkForm({ ...filled, password: '' }, { passwordSet: true }).valid, true);
  });

  it('is invalid with a wrong port or connection count', () => {
    const wrongPort = checkForm({ ...filled, port: '70000' }, { passwordSet: false });
    assert.equal(wrongPort.valid, false);
    assert.equal(wrongPort.port, 'portInvalid');
    assert.equal(
      checkForm({ ...filled, maxConnections: '0' }, { passwordSet: false }).maxConnections,
      'maxConnectionsInvalid',
    );
    assert.equal(checkForm({ ...filled, maxConnections: '17' }, { passwordSet: false }).valid, false);
  });

  it('is invalid with a name over 64 characters', () => {
    assert.equal(checkForm({ ...filled, name: 'x'.repeat(65) }, { passwordSet: false }).valid, false);
  });

  it('defaults to ftp with 4 connections and sends the parent folder on create', () => {
    assert.equal(emptyForm.protocol, 'ftp');
    assert.deepEqual(toBody({ ...filled, host: ' ftp.example.com ' }, 9), {
      name: 'Agency',
      host: 'ftp.example.com',
      port: '',
      path: '',
      protocol: 'ftp',
      username: 'press',
      password: 'secret',
      maxConnections: 4,
      parentFolderId: 9,
    });
  });

  it('tests with the stored password of a saved server when none is typed', () => {
    assert.equal(toTestBody({ ...filled, password: '' }, 5).ftpserverid, 5);
    assert.equal(toTestBody(filled, 5).ftpserverid, undefined);
    assert.equal(toTestBody({ ...filled, password: '' }).ftpserverid, undefined);
  });
});

describe('stored password and a changed connection (issue 10 item 1)', () => {
  const stored = { ...filled, password: '', port: '' };
  it('keeps the stored password while host, port, protocol and user name stay', () => {
    const state = checkForm(
      { ...stored, name: 'Renamed', path: '/in', host: 'FTP.example.com' },
      {
        passwordSet: true,
        stored,
      },
    );
    assert.deepEqual([state.valid, state.passwordAgain], [true, false]);
  });

  it('needs the password again when one of them changes', () => {
    for (const change of [
      { host: 'evil.example' },
      { port: '2121' },
      { protocol: 'sftp' as const },
      { username: 'x' },
    ]) {
      const state = checkForm({ ...stored, ...change }, { passwordSet: true, stored });
      assert.deepEqual(
        [state.valid, state.passwordAgain, state.missing],
        [false, true, ['password']],
        JSON.stringify(change),
      );
      assert.equal(
        checkForm({ ...stored, ...change, password: 'typed' }, { passwordSet: true, stored }).valid,
        true,
      );
    }
  });
});
