import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from './config.ts';
import { MigrationError } from './db/kysely.ts';
import { seedDemo } from './modules/teams/seed-demo.ts';
import { BackupError, backup, restore } from './ops/backup.ts';
import { releaseVersion } from './ops/version.ts';
import { type Role, startPhotoRelay } from './runtime.ts';

const roles: Role[] = ['all', 'web', 'ingest', 'worker'];

async function main() {
  const { values, positionals } = parseArgs({
    options: { role: { type: 'string', default: 'all' } },
    allowPositionals: true,
  });
  // `main.mjs backup DIR` / `main.mjs restore DIR` (README "Backup and restore").
  const [command, folder, ...extra] = positionals;
  if (command !== undefined) return runCommand(command, folder, extra);
  const role = values.role as Role;
  if (!roles.includes(role))
    throw new ConfigError(`Invalid option --role: expected one of ${roles.join(', ')}`);
  const config = loadConfig();
  const running = await startPhotoRelay(config, { role });
  const { log } = running.ctx;

  const demo = role === 'all' && config.SEED_DEMO ? await seedDemo(running.ctx.db, config.DATA_DIR) : null;
  if (running.app) {
    log.info(`PhotoRelay is running: open ${config.publicUrl} (API docs: ${config.publicUrl}/api/docs)`);
    console.log(`\n  PhotoRelay:  ${config.publicUrl}`);
    if (running.ingest) {
      console.log(
        `  FTP/FTPS:    ${config.publicFtpHost}:${running.ingest.ftpPort}   SFTP: ${config.publicFtpHost}:${running.ingest.sftpPort}`,
      );
    }
    if (demo)
      console.log(
        `  Log in as:   ${demo.email}\n  Password:    ${demo.password ?? `in ${demo.passwordFile}`}\n`,
      );
  }

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info(`${signal}: shutting down`);
    const force = setTimeout(() => process.exit(1), 15_000);
    force.unref();
    await running.stop();
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

async function runCommand(command: string, folder: string | undefined, extra: string[]) {
  if (!['backup', 'restore'].includes(command) || !folder || extra.length)
    throw new ConfigError('Usage: main.mjs [--role all|web|ingest|worker] | backup DIR | restore DIR');
  const config = loadConfig();
  if (command === 'backup') {
    const made = await backup(config, folder, releaseVersion());
    console.log(`Backup of PhotoRelay ${made.version} (${made.database} database) written to ${folder}`);
  } else {
    const restored = await restore(config, folder);
    console.log(
      `Restored the backup of ${restored.createdAt} (PhotoRelay ${restored.version}) into ${config.DATA_DIR}.\n` +
        `Its settings are in ${folder}/settings.env; start PhotoRelay to use it (migrations run at start).`,
    );
  }
}

main().catch((error) => {
  if (error instanceof ConfigError || error instanceof BackupError || error instanceof MigrationError) {
    console.error(error.message);
  } else {
    console.error(error);
  }
  process.exit(1);
});
