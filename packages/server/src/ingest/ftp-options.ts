import type { Logger } from 'pino';
import type { IngestBackend } from './backend.ts';
import type { PassiveLimits } from './ftp-passive.ts';
import type { LoginThrottle } from './login-throttle.ts';
import type { TlsMaterial } from './tls.ts';

/** What startFtpIngest (ftp-server.ts) is given: the settings and the parts it uses. */
export interface FtpIngestOptions {
  /** 0 = any free port (tests). */
  port: number;
  host: string;
  pasvRange: [min: number, max: number];
  /** Address announced in PASV replies (IPv4 or a host name resolved once at start). Default: the address the client connected to. */
  pasvAddress?: string;
  tls: TlsMaterial;
  /** Implicit FTPS listener (TLS from the first byte); 0 = any free port. */
  implicitTlsPort?: number;
  maxUploadBytes: number;
  backend: IngestBackend;
  log: Logger;
  loginThrottle?: LoginThrottle;
  /** Command connection idle (no command, no transfer) before it is closed. Default 5 minutes. */
  idleTimeoutMs?: number;
  /** Data connection silent this long during an upload = aborted. Default 60 s. */
  dataIdleTimeoutMs?: number;
  /** Failed logins on one connection before it is closed. Default 3. */
  maxLoginFailuresPerConnection?: number;
  /** Caps of open passive listeners (see ftp-passive.ts). Defaults: 32 per account, 16 per address, half the range per team, 2 s wait at a cap, 20 s. */
  passiveLimits?: Partial<PassiveLimits>;
  /** Control connections from one address at once (FTP and FTPS together). Default 100. */
  maxConnectionsPerAddress?: number;
  /** Plain FTP logins are refused ("530 TLS required"); FTPS and implicit FTPS only. */
  requireTls?: boolean;
}
