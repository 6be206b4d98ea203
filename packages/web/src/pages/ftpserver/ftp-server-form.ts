// Spec §5 'FTP server form': valid only when the name is not blank and host, username and
// password are set (the stored password counts); the port is optional, digits only, 1 to 65535.
import { ftpServerBody, portField } from '@photorelay/contract/ftpservers';
import { type FtpProtocol, ftpProtocols, limits } from '@photorelay/contract/limits';
import type { FtpServer, FtpServerInput, TestFtpServerBody } from '../../api/ftpservers.ts';

export type FtpServerForm = {
  name: string;
  host: string;
  port: string;
  path: string;
  protocol: FtpProtocol;
  username: string;
  password: string;
  maxConnections: string;
};

export const defaultMaxConnections = limits.ftpServerConnectionsDefault;
const maxConnectionsField = ftpServerBody.shape.maxConnections;

export const emptyForm: FtpServerForm = {
  name: '',
  host: '',
  port: '',
  path: '',
  protocol: 'ftp',
  username: '',
  password: '',
  maxConnections: String(defaultMaxConnections),
};

/** The form filled from a stored server; its password is never sent, so the field starts empty. */
export const formOf = (server: FtpServer): FtpServerForm => ({
  name: server.name,
  host: server.host,
  port: server.port === null ? '' : String(server.port),
  path: server.path,
  protocol: (ftpProtocols as readonly string[]).includes(server.protocol) ? server.protocol : 'ftp',
  username: server.username,
  password: '',
  maxConnections: String(server.maxConnections),
});

/** 'Port must be between 1 and 65535' for anything but nothing or 1..65535 in digits. */
export const portProblem = (port: string): 'portInvalid' | null =>
  portField.safeParse(port.trim()).success ? null : 'portInvalid';

export const maxConnectionsProblem = (value: string): 'maxConnectionsInvalid' | null =>
  /^\d+$/.test(value.trim()) && maxConnectionsField.safeParse(Number(value)).success
    ? null
    : 'maxConnectionsInvalid';

/** A port as the server stores it: empty (the protocol's default) or the number. */
const portKey = (port: string) => (port.trim() === '' ? '' : String(Number(port.trim())));

/**
 * Whether host, port, protocol or user name differ from the stored server's: the stored password
 * belongs to those, so the server then needs it typed again (for Save and for Test).
 */
export function connectionChanged(form: FtpServerForm, stored: FtpServerForm | null): boolean {
  if (!stored) return false;
  return (
    form.host.trim().toLowerCase() !== stored.host.trim().toLowerCase() ||
    portKey(form.port) !== portKey(stored.port) ||
    form.protocol !== stored.protocol ||
    form.username !== stored.username
  );
}

export type FormState = {
  /** Test and Save need this. */
  valid: boolean;
  /** A password is stored but the connection changed: it must be typed again. */
  passwordAgain: boolean;
  port: 'portInvalid' | null;
  maxConnections: 'maxConnectionsInvalid' | null;
  missing: Array<'name' | 'host' | 'username' | 'password'>;
};

export function checkForm(
  form: FtpServerForm,
  options: { passwordSet: boolean; stored?: FtpServerForm | null },
): FormState {
  const missing: FormState['missing'] = [];
  const passwordAgain = options.passwordSet && connectionChanged(form, options.stored ?? null);
  if (!form.name.trim()) missing.push('name');
  if (!form.host.trim()) missing.push('host');
  if (!form.username) missing.push('username');
  if (!form.password && (!options.passwordSet || passwordAgain)) missing.push('password');
  const port = portProblem(form.port);
  const maxConnections = maxConnectionsProblem(form.maxConnections);
  const tooLong = !ftpServerBody.safeParse(toBody({ ...form, port: '', password: form.password })).success;
  return {
    valid: missing.length === 0 && !port && !maxConnections && !tooLong,
    passwordAgain,
    port,
    maxConnections,
    missing,
  };
}

/** What Save sends; an empty password keeps the stored one. */
export function toBody(form: FtpServerForm, parentFolderId?: number): FtpServerInput {
  return {
    name: form.name.trim(),
    host: form.host.trim(),
    port: form.port.trim(),
    path: form.path.trim(),
    protocol: form.protocol,
    username: form.username,
    password: form.password,
    maxConnections: Number(form.maxConnections) || defaultMaxConnections,
    ...(parentFolderId ? { parentFolderId } : {}),
  };
}

/** What Test sends; without a typed password the server uses the stored one of `serverId`. */
export function toTestBody(form: FtpServerForm, serverId?: number): TestFtpServerBody {
  return {
    host: form.host.trim(),
    port: form.port.trim(),
    username: form.username,
    password: form.password,
    path: form.path.trim(),
    protocol: form.protocol,
    ...(serverId && !form.password ? { ftpserverid: serverId } : {}),
  };
}

/** The port a protocol uses when the field is empty (shown as the field's placeholder). */
export const defaultPort = (protocol: FtpProtocol) => (protocol === 'sftp' ? 22 : 21);
