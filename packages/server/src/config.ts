import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { z } from 'zod';

const flag = z.enum(['0', '1', 'true', 'false']).transform((v) => v === '1' || v === 'true');
const port = z.coerce.number().int().min(1).max(65535);
const optionalUrl = z.url().optional();
// What Fastify's trustProxy (proxy-addr) accepts: an address, address/prefix, or one of its names.
const proxyNames = new Set(['loopback', 'linklocal', 'uniquelocal']);
const isProxyEntry = (entry: string) => {
  if (proxyNames.has(entry)) return true;
  const [address, prefix, ...rest] = entry.split('/');
  const family = net.isIP(address);
  if (!family || rest.length) return false;
  return prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128));
};

// Every setting in one schema: README.md lists them with their defaults.
const schema = z.object({
  PORT: port.default(8080),
  HOST: z.string().default('0.0.0.0'),
  // Behind a reverse proxy the web port listens on loopback while cameras still reach FTP/SFTP.
  INGEST_HOST: z.string().optional(),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must start with postgres://')
    .optional(),
  PUBLIC_URL: optionalUrl,
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must start with smtp:// or smtps://')
    .optional(),
  MAIL_FROM: z.string().default('PhotoRelay <noreply@photorelay.local>'),
  // Issue 27 item 5: calendar apps' answers to event invitations (iMIP REPLY). Unset: no listener.
  INBOUND_SMTP_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  INBOUND_SMTP_HOST: z.string().optional(),
  // The domain of the invitations' reply addresses (reply+TOKEN@domain); its MX points to the listener.
  INBOUND_MAIL_DOMAIN: z
    .string()
    .regex(/^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)+$/i, 'must be a domain name')
    .optional(),
  INBOUND_MAIL_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .default(256 * 1024),
  SECRET_KEY: z
    .string()
    .regex(/^[0-9a-fA-F]{64}$/, 'must be 64 hex characters (32 bytes)')
    .optional(),
  // Unset: on, except under NODE_ENV=production (see loadConfig).
  SEED_DEMO: flag.optional(),
  NODE_ENV: z.string().optional(),
  DEBUG_ADMIN: flag.default(false),
  ALLOW_PRIVATE_NETWORKS: flag.default(false),
  AUTH_RATE_LIMIT: z.coerce.number().int().min(1).default(10),
  // Unset: X-Forwarded-For is ignored and the client is the connection's address.
  TRUST_PROXY: z
    .string()
    .default('')
    .transform((v) =>
      v
        .split(',')
        .map((entry) => entry.trim())
        .filter(Boolean),
    )
    .refine((list) => list.every(isProxyEntry), 'must be a comma-separated list of addresses or CIDRs'),
  // Unset: /api/metrics answers loopback clients only.
  METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  // A listener of its own for /metrics (worker and ingest processes have no web port).
  METRICS_PORT: port.optional(),
  METRICS_HOST: z.string().default('127.0.0.1'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  OPERATOR_NAME: z.string().default('PhotoRelay GmbH'),
  OPERATOR_ADDRESS: z.string().default('Musterstraße 1, 10115 Berlin, Deutschland'),
  OPERATOR_EMAIL: z.string().default('info@photorelay.local'),
  PUBLIC_FTP_HOST: z.string().optional(),
  FTP_PORT: port.default(2121),
  FTPS_CERT: z.string().optional(),
  FTPS_KEY: z.string().optional(),
  // How often FTPS_CERT/FTPS_KEY files are looked at for a renewal (reloaded without a restart).
  FTPS_CERT_CHECK_SECONDS: z.coerce.number().int().min(1).default(60),
  FTPS_IMPLICIT_PORT: port.optional(),
  PASV_PORTS: z
    .string()
    .regex(/^\d+-\d+$/, 'must look like 30000-30100')
    .default('30000-30100')
    .transform((v) => v.split('-').map(Number) as [number, number])
    .refine(([a, b]) => a >= 1 && b <= 65535 && a <= b, 'must be a range of ports'),
  PASV_ADDRESS: z.string().optional(),
  SFTP_PORT: port.default(2222),
  REQUIRE_TLS: flag.default(false),
  // A project account is shared by a whole crew (16-25 cameras at a big event; issue 29).
  PASV_MAX_PER_ACCOUNT: z.coerce.number().int().min(1).default(32),
  PASV_MAX_PER_ADDRESS: z.coerce.number().int().min(1).default(16),
  /** Unset: half the PASV_PORTS range (see loadConfig). */
  PASV_MAX_PER_TEAM: z.coerce.number().int().min(1).optional(),
  PASV_WAIT_MS: z.coerce.number().int().min(0).max(30_000).default(2000),
  INGEST_MAX_CONNECTIONS_PER_ADDRESS: z.coerce.number().int().min(1).default(100),
  MAX_UPLOAD_BYTES: z.coerce
    .number()
    .int()
    .min(1)
    .default(2 * 1024 ** 3),
  RETENTION_DAYS: z.coerce.number().min(1).default(30),
  WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(8),
  JOB_LEASE_SECONDS: z.coerce.number().int().min(2).max(3600).default(60),
  TEAM_STORAGE_QUOTA_MB: z.coerce.number().int().min(1).default(512),
  SCRIPT_TIME_LIMIT_MS: z.coerce.number().int().min(10).max(10_000).default(200),
  SCRIPT_MEMORY_LIMIT_MB: z.coerce.number().int().min(4).max(512).default(32),
  HTTP_REQUEST_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(3600).default(120),
  HTTP_HEADERS_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(3600).default(30),
  SFTP_UPLOAD_STALL_SECONDS: z.coerce.number().int().min(1).max(3600).default(60),
  ORPHAN_FILE_AGE_SECONDS: z.coerce.number().int().min(1).default(3600),
  STORAGE_FULL_RETRY_SECONDS: z.coerce.number().int().min(1).max(3600).default(30),
  // Issue 30 item 6: under this much free space the data disk counts as full (uploads refused).
  DISK_FREE_MIN_MB: z.coerce.number().min(0).default(100),
  DISK_CHECK_SECONDS: z.coerce.number().min(0.1).max(300).default(5),
  // Threads of the script sandbox pool, and how many of them one team's scripts may use at once.
  SCRIPT_THREADS: z.coerce.number().int().min(1).max(32).default(2),
  SCRIPT_THREADS_PER_TEAM: z.coerce.number().int().min(1).max(32).default(1),
  STAMP_TIME_LIMIT_MS: z.coerce.number().int().min(1).max(600_000).default(10_000),
  // Issue 25: thumbnails decode in their own process, killed past these (adapters/pictures).
  PICTURE_TIME_LIMIT_MS: z.coerce.number().int().min(100).max(600_000).default(15_000),
  PICTURE_MEMORY_LIMIT_MB: z.coerce.number().int().min(64).max(65_536).default(768),
  // What a picture's header may claim that decoding holds: a 100 MP baseline JPEG needs 300 MB.
  PICTURE_DECODE_BUDGET_MB: z.coerce.number().int().min(16).max(65_536).default(512),
  // Reading one calendar feed (parse and expansion, on a thread of its own): its deadline and heap.
  CALENDAR_READ_TIME_LIMIT_MS: z.coerce.number().int().min(100).max(600_000).default(120_000),
  CALENDAR_READ_MEMORY_LIMIT_MB: z.coerce.number().int().min(16).max(4096).default(256),
});

/** Every setting's name (a backup keeps those the process runs with). */
export const settingNames = Object.keys(schema.shape);

export type Config = Omit<z.infer<typeof schema>, 'PASV_MAX_PER_TEAM' | 'SEED_DEMO'> & {
  PASV_MAX_PER_TEAM: number;
  SEED_DEMO: boolean;
  publicUrl: string;
  publicFtpHost: string;
  secretKey: Buffer;
};

export class ConfigError extends Error {}

/** Parses the environment; a wrong value throws one line per setting that names it. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = schema.safeParse(cleaned);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `Invalid setting ${String(i.path[0])}: ${i.message}`);
    throw new ConfigError(lines.join('\n'));
  }
  const c = parsed.data;
  const dataDir = path.resolve(c.DATA_DIR);
  const publicUrl = (c.PUBLIC_URL ?? `http://localhost:${c.PORT}`).replace(/\/$/, '');
  return {
    ...c,
    // The one-command demo (`npm install && npm start`) seeds; a production start does not unless asked.
    SEED_DEMO: c.SEED_DEMO ?? c.NODE_ENV !== 'production',
    DATA_DIR: dataDir,
    publicUrl,
    publicFtpHost: c.PUBLIC_FTP_HOST ?? new URL(publicUrl).hostname,
    secretKey: c.SECRET_KEY ? Buffer.from(c.SECRET_KEY, 'hex') : readOrCreateSecret(dataDir),
    // Half the passive ports: one team leaves the other half to everybody else (issue 25).
    PASV_MAX_PER_TEAM:
      c.PASV_MAX_PER_TEAM ?? Math.max(1, Math.floor((c.PASV_PORTS[1] - c.PASV_PORTS[0] + 1) / 2)),
  };
}

function readOrCreateSecret(dataDir: string): Buffer {
  const file = path.join(dataDir, 'secret.key');
  fs.mkdirSync(dataDir, { recursive: true });
  if (!fs.existsSync(file)) {
    fs.writeFileSync(file, crypto.randomBytes(32).toString('hex'), { mode: 0o600, flag: 'wx' });
  }
  const hex = fs.readFileSync(file, 'utf8').trim();
  if (!/^[0-9a-f]{64}$/i.test(hex)) throw new ConfigError(`Invalid setting SECRET_KEY: ${file} is corrupt`);
  return Buffer.from(hex, 'hex');
}
