import path from 'node:path';
import type { AppContext } from '../context.ts';
import { startFtpIngest } from './ftp-server.ts';
import { LoginThrottle } from './login-throttle.ts';
import { databaseThrottleStore } from './login-throttle-db.ts';
import { createProjectIngestBackend } from './project-backend.ts';
import { startSftpIngest } from './sftp-server.ts';
import { loadOrCreateTlsMaterial, watchTlsFiles } from './tls.ts';

/** FTP (+ explicit and optional implicit FTPS) and SFTP ingest for project accounts, from the settings. */
export async function startIngest(
  ctx: AppContext,
  ports?: { ftp?: number; sftp?: number; implicit?: number },
) {
  const { config } = ctx;
  const backend = createProjectIngestBackend(ctx);
  // One throttle for both protocols: guessing passwords over SFTP counts against FTP too.
  // Its counts live in the database, so split ingest processes share them.
  const loginThrottle = new LoginThrottle({ store: databaseThrottleStore(ctx.db, ctx.log) });
  const tls = await loadOrCreateTlsMaterial({
    certFile: config.FTPS_CERT,
    keyFile: config.FTPS_KEY,
    dataDir: config.DATA_DIR,
    commonName: config.publicFtpHost,
  });
  const ftp = await startFtpIngest({
    port: ports?.ftp ?? config.FTP_PORT,
    host: config.INGEST_HOST ?? config.HOST,
    pasvRange: config.PASV_PORTS,
    pasvAddress: config.PASV_ADDRESS,
    tls,
    implicitTlsPort: ports?.implicit ?? config.FTPS_IMPLICIT_PORT,
    maxUploadBytes: config.MAX_UPLOAD_BYTES,
    backend,
    log: ctx.log,
    loginThrottle,
    passiveLimits: {
      perAccount: config.PASV_MAX_PER_ACCOUNT,
      perAddress: config.PASV_MAX_PER_ADDRESS,
      perTeam: config.PASV_MAX_PER_TEAM,
      waitMs: config.PASV_WAIT_MS,
    },
    maxConnectionsPerAddress: config.INGEST_MAX_CONNECTIONS_PER_ADDRESS,
    requireTls: config.REQUIRE_TLS,
  });
  // A start that fails halfway must not leave the FTP listener open (the process would not exit).
  const sftp = await startSftpIngest({
    port: ports?.sftp ?? config.SFTP_PORT,
    host: config.INGEST_HOST ?? config.HOST,
    hostKeyDir: path.join(config.DATA_DIR, 'ssh'),
    maxUploadBytes: config.MAX_UPLOAD_BYTES,
    backend,
    log: ctx.log,
    loginThrottle,
    maxConnectionsPerAddress: config.INGEST_MAX_CONNECTIONS_PER_ADDRESS,
    uploadStallMs: config.SFTP_UPLOAD_STALL_SECONDS * 1000,
  }).catch(async (error: unknown) => {
    await ftp.close();
    throw error;
  });
  const stopWatching = watchTlsFiles(
    {
      certFile: config.FTPS_CERT,
      keyFile: config.FTPS_KEY,
      intervalMs: config.FTPS_CERT_CHECK_SECONDS * 1000,
    },
    (material) => ftp.reloadTls(material),
    ctx.log,
  );
  return {
    ftpPort: ftp.port,
    sftpPort: sftp.port,
    implicitPort: ftp.implicitPort,
    async close() {
      stopWatching();
      await Promise.all([ftp.close(), sftp.close()]);
    },
  };
}
