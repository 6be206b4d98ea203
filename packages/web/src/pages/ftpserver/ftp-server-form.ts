// Spec §5 'FTP server form': valid only when the name is not blank and host, username and
// password are set (the stored password counts); the port is optional, digits only, 1 to 65535.
// The rules are the contract's (ftpServerBody, portField) on the form's texts.
import { ftpServerBody, portField } from '@photorelay/contract/ftpservers';
import { type FtpProtocol, ftpProtocols } from '@photorelay/contract/limits';
import { z } from 'zod';
import type { FtpServer, FtpServerInput, TestFtpServerBody } from '../../api/ftpservers.ts';
import { validationMessages } from '../../ui/validation.ts';

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

export const defaultMaxConnections = 4;
const body = ftpServerBody.shape;

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
const portOk = (port: string) => portField.safeParse(port.trim()).success;
const maxConnectionsOk = (value: string) =>
  /^\d+$/.test(value.trim()) && Boolean(body.maxConnections.safeParse(Number(value)).success);

export const portProblem = (port: string): 'portInvalid' | null => (portOk(port) ? null : 'portInvalid');

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

export type FormOptions = { passwordSet: boolean; stored?: FtpServerForm | null };

/** A password is stored but the connection changed: it must be typed again. */
export const passwordAgainFor = (form: FtpServerForm, options: FormOptions) =>
  options.passwordSet && connectionChanged(form, options.stored ?? null);

/** A stored password is kept unless the connection changed; without one a password is required. */
const needsPassword = (form: FtpServerForm, options: FormOptions) =>
  !options.passwordSet || connectionChanged(form, options.stored ?? null);

/**
 * The form's schema (react-hook-form's resolver): problems are keys, 'required' and 'tooLong' of
 * `validation.`, 'portInvalid' and 'maxConnectionsInvalid' of `ftpServers.`.
 */
export const ftpServerFormSchema = (options: FormOptions): z.ZodType<FtpServerForm, FtpServerForm> =>
  z
    .object({
      name: body.name,
      host: body.host,
      port: z.string().refine(portOk, 'portInvalid'),
      path: body.path.unwrap(),
      protocol: z.enum(ftpProtocols),
      username: body.username,
      password: body.password.unwrap(),
      maxConnections: z.string().refine(maxConnectionsOk, 'maxConnectionsInvalid'),
    })
    .refine((form) => form.password !== '' || !needsPassword(form, options), {
      path: ['password'],
      message: 'required',
      // Also while other fields have problems, so that each field shows its own.
      when: () => true,
    });

export function checkForm(form: FtpServerForm, options: FormOptions): FormState {
  const result = ftpServerFormSchema(options).safeParse(form, { error: validationMessages });
  const issues = result.success ? [] : result.error.issues;
  const problem = (field: keyof FtpServerForm) => issues.find((issue) => issue.path[0] === field)?.message;
  return {
    valid: result.success,
    passwordAgain: passwordAgainFor(form, options),
    port: problem('port') ? 'portInvalid' : null,
    maxConnections: problem('maxConnections') ? 'maxConnectionsInvalid' : null,
    missing: (['name', 'host', 'username', 'password'] as const).filter(
      (field) => problem(field) === 'required',
    ),
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
