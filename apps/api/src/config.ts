import { isIP } from 'node:net';
import os from 'node:os';
import path from 'node:path';

/** Every setting the server reads, with its environment variable. docs/configuration.md lists the same table. */
export interface Config {
  /** PORT: HTTP port (default 3000). */
  port: number;
  /**
   * HOST: interface to bind. Default `localhost`: only this machine can open the app until an operator
   * opens it to the network with HOST=0.0.0.0 (ADR 0051: the demo sign-ins' passwords are published).
   */
  host: string;
  /** DATA_DIR: folder for the embedded PostgreSQL server and files (default ./data). */
  dataDir: string;
  /** DATABASE_URL: an external PostgreSQL server; unset means the embedded one under DATA_DIR/pg. */
  databaseUrl: string | undefined;
  /** PUBLIC_URL: origin used in mailed links (default http://localhost:PORT). */
  publicUrl: string;
  /** SMTP_URL: e.g. smtp://user:pass@host:587; unset means mail goes to the outbox table and the log. */
  smtpUrl: string | undefined;
  /** MAIL_FROM: sender address of mails (default "FVG <no-reply@fvg.local>"). */
  mailFrom: string;
  /** JOBS_ENABLED: run the job worker in this process (default true); enqueueing works either way (ADR 0027). */
  jobsEnabled: boolean;
  /** JOBS_CONCURRENCY: jobs this process runs at once (default 2). */
  jobsConcurrency: number;
  /** BACKUP_*: scheduled backups on the job queue and where `npm run cli -- backup` writes (ADR 0054). */
  backup: BackupConfig;
  /** JWT_SECRET: HMAC secret for access tokens; unset means one is generated once and kept in the database. */
  jwtSecret: string | undefined;
  /** TOKEN_TTL_HOURS: lifetime of an access token (default 12). */
  tokenTtlHours: number;
  /** LOGIN_MAX_ATTEMPTS / LOGIN_WINDOW_SECONDS: sign-in attempts per account and address per window (ADR 0016). */
  loginMaxAttempts: number;
  loginWindowSeconds: number;
  /** LOG_LEVEL: fatal|error|warn|info|debug|trace|silent (default info). */
  logLevel: string;
  /**
   * METRICS_TOKEN: the bearer token a Prometheus scraper sends to read `/api/metrics` (ADR 0055).
   * With neither it nor METRICS_ALLOW the endpoint answers 404: metrics are off.
   */
  metricsToken: string | undefined;
  /** METRICS_ALLOW: addresses/CIDRs (comma-separated) that may read `/api/metrics` without the token. */
  metricsAllow: string[];
  /**
   * OTEL_EXPORTER_OTLP_ENDPOINT: an OTLP/HTTP collector (e.g. http://collector:4318); set, the server
   * exports traces there (the other OTEL_* variables as OpenTelemetry defines them). Unset: no tracing.
   */
  otelEndpoint: string | undefined;
  /** SEED_DEMO: seed the demo sign-ins, parties and demo company into an empty database (default true). */
  seedDemo: boolean;
  /**
   * TRUST_PROXY: which proxies may set the client address through X-Forwarded-For (default false:
   * none). `true` is one hop (the load balancer in front), a number that many hops, or a list of
   * proxy addresses/CIDRs. Never "every hop": a client could then choose its own address.
   */
  trustProxy: boolean | number | string[];
  /** REDIS_URL: Redis for the hub backplane and presence across several API nodes; unset means one node. */
  redisUrl: string | undefined;
  /** HUB_KEEP_ALIVE_SECONDS / HUB_CLIENT_TIMEOUT_SECONDS: hub pings when idle, and when a silent client is dropped. */
  hubKeepAliveMs: number;
  hubClientTimeoutMs: number;
  /** HUB_RECHECK_SECONDS: how often every open hub connection's user is re-checked, calls or not (default 30). */
  hubRecheckMs: number;
  /** HUB_MAX_MESSAGE_BYTES: largest hub message a client may send (default 32768). */
  hubMaxMessageSize: number;
  /** WEB_DIST: folder of the built SPA (default apps/web/dist). */
  webDist: string;
  /** DOCUMENT_MAX_BYTES: largest uploaded document file in bytes (default 52428800, 50 MB). */
  documentMaxBytes: number;
  /** S3_BUCKET (and the other S3_* settings): store documents in an S3-compatible bucket; unset means DATA_DIR/files. */
  s3: S3Config | undefined;
  /**
   * PG_SHARED_BUFFERS: shared_buffers of the embedded PostgreSQL in MB (ignored with DATABASE_URL).
   * Default: an eighth of the machine's memory, between 128 and 1024.
   */
  embeddedSharedBuffersMb: number;
  /**
   * PG_RESTART_MAX / PG_RESTART_WINDOW_SECONDS: the embedded PostgreSQL is restarted when it dies, at
   * most this many times within the window (default 5 in 600 s); one more death ends the app with exit
   * code 1 so that its supervisor restarts it (docs/adr/0053). Ignored with DATABASE_URL.
   */
  pgRestartMax: number;
  pgRestartWindowSeconds: number;
  /** SANDBOX_*: how the shipped sandbox customs authority answers (ADR 0033). */
  sandbox: SandboxConfig;
}

export interface BackupConfig {
  /** BACKUP_DIR: folder of the backup files (default DATA_DIR/backups; better another disk). */
  dir: string;
  /** BACKUP_CRON: when the scheduled backup runs (crontab, UTC; default `0 2 * * *`, nightly); `off` turns it off. */
  cron: string | undefined;
  /** BACKUP_KEEP: how many backup files the scheduled backup keeps in BACKUP_DIR, the newest (default 14). */
  keep: number;
}

/** The steps of the sandbox authority, each answered after its own delay (SANDBOX_DELAYS). */
export const SANDBOX_STEPS = [
  'accept',
  'control',
  'release',
  'exit',
  'arrival',
  'discharge',
  'answer',
] as const;
export type SandboxStep = (typeof SANDBOX_STEPS)[number];

export interface SandboxConfig {
  /** SANDBOX_DELAYS: seconds before each step's answer, `accept=2,control=5,…`; unnamed steps keep their default. */
  delays: Readonly<Record<SandboxStep, number>>;
  /** SANDBOX_CONTROL_PERCENT: share of accepted declarations selected for control (default 20). */
  controlPercent: number;
  /** SANDBOX_NOT_RELEASED_PERCENT: share of controlled declarations not released (default 25). */
  notReleasedPercent: number;
  /** SANDBOX_SEED: mixed into the hash of each LRN that picks control and release (default `fvg`). */
  seed: string;
}

/** Long enough that a lodged declaration is seen waiting, short enough that the demo moves on its own. */
export const DEFAULT_SANDBOX_DELAYS: Readonly<Record<SandboxStep, number>> = {
  accept: 2,
  control: 5,
  release: 5,
  exit: 20,
  arrival: 20,
  discharge: 10,
  answer: 2,
};

/** SANDBOX_DELAYS as `step=seconds` pairs over the defaults; an unknown step or a bad number names the variable. */
export function sandboxDelays(value: string | undefined): Record<SandboxStep, number> {
  const delays = { ...DEFAULT_SANDBOX_DELAYS };
  if (value === undefined || value.trim() === '') return delays;
  for (const pair of value.split(',')) {
    const [step = '', seconds, extra] = pair.split('=').map((s) => s.trim());
    if (!(SANDBOX_STEPS as readonly string[]).includes(step) || seconds === undefined || extra !== undefined)
      throw new Error(
        `SANDBOX_DELAYS must be step=seconds pairs of ${SANDBOX_STEPS.join(', ')}, got "${pair.trim()}"`,
      );
    delays[step as SandboxStep] = int('SANDBOX_DELAYS', seconds, 0);
  }
  return delays;
}

function percent(name: string, value: string | undefined, fallback: number): number {
  const n = int(name, value, fallback);
  if (n > 100) throw new Error(`${name} must be a percentage from 0 to 100, got "${value}"`);
  return n;
}

/** An eighth of the memory, at least PostgreSQL's own default (128 MB), at most 1 GB. */
export function defaultSharedBuffersMb(totalMemoryBytes: number = os.totalmem()): number {
  return Math.min(1024, Math.max(128, Math.floor(totalMemoryBytes / 8 / 1024 / 1024)));
}

/** An S3-compatible document store. */
export interface S3Config {
  /** S3_BUCKET */
  bucket: string;
  /** S3_ENDPOINT: e.g. http://minio:9000; unset means AWS S3. */
  endpoint: string | undefined;
  /** S3_REGION (default us-east-1). */
  region: string;
  /** S3_ACCESS_KEY_ID / S3_SECRET_ACCESS_KEY: unset means the AWS SDK's default credential chain. */
  accessKeyId: string | undefined;
  secretAccessKey: string | undefined;
  /** S3_FORCE_PATH_STYLE: bucket in the path instead of the host name, as MinIO and most non-AWS stores need (default false). */
  forcePathStyle: boolean;
}

function int(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0)
    throw new Error(`${name} must be a non-negative integer, got "${value}"`);
  return n;
}

/** TRUST_PROXY as Fastify's trustProxy: false, a hop count (true = 1), or proxy addresses/CIDRs. */
function trustProxy(value: string | undefined): boolean | number | string[] {
  if (value === undefined || value.trim() === '') return false;
  const v = value.trim().toLowerCase();
  if (['0', 'false', 'no', 'off'].includes(v)) return false;
  if (['true', 'yes', 'on'].includes(v)) return 1;
  if (/^\d+$/.test(v)) return Number(v);
  const list = v.split(',').map((a) => a.trim());
  if (list.some((a) => !/^[0-9a-f:.]+(\/\d{1,3})?$/.test(a)))
    throw new Error(
      `TRUST_PROXY must be false, true, a number of hops or proxy addresses/CIDRs, got "${value}"`,
    );
  return list;
}

/** Five crontab fields (checked in full when the job queue takes the schedule); `off` for none. */
function backupCron(value: string | undefined): string | undefined {
  const v = value?.trim() ?? '';
  if (v === '') return '0 2 * * *';
  if (['off', 'false', 'no', 'none'].includes(v.toLowerCase())) return undefined;
  if (v.split(/\s+/).length !== 5)
    throw new Error(
      `BACKUP_CRON must be a crontab schedule of five fields (e.g. "0 2 * * *") or off, got "${value}"`,
    );
  return v;
}

/** A guessable scrape token would open the metrics to anyone on the network: 16 characters at least. */
function metricsToken(value: string | undefined): string | undefined {
  if (value === undefined || value === '') return undefined;
  if (value.length < 16) throw new Error('METRICS_TOKEN must be at least 16 characters long');
  return value;
}

/** METRICS_ALLOW as a list of addresses and CIDRs; a malformed entry names the variable. */
export function addressList(name: string, value: string | undefined): string[] {
  if (value === undefined || value.trim() === '') return [];
  const list = value.split(',').map((a) => a.trim());
  for (const entry of list) {
    const [address = '', prefix, extra] = entry.split('/');
    const family = isIP(address);
    const bits = family === 6 ? 128 : 32;
    if (
      family === 0 ||
      extra !== undefined ||
      (prefix !== undefined && !(/^\d{1,3}$/.test(prefix) && Number(prefix) <= bits))
    )
      throw new Error(`${name} must be IP addresses or CIDRs separated by commas, got "${entry}"`);
  }
  return list;
}

function bool(value: string | undefined, fallback: boolean): boolean {
  if (value === undefined || value === '') return fallback;
  return !['0', 'false', 'no', 'off'].includes(value.toLowerCase());
}

const repoRoot = path.resolve(import.meta.dirname, '../../..');

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = int('PORT', env.PORT, 3000);
  const dataDir = path.resolve(env.DATA_DIR || path.join(repoRoot, 'data'));
  const databaseUrl = env.DATABASE_URL || undefined;
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new Error('DATABASE_URL must start with postgres:// or postgresql://');
  }
  return {
    port,
    host: env.HOST || 'localhost',
    dataDir,
    databaseUrl,
    publicUrl: (env.PUBLIC_URL || `http://localhost:${port}`).replace(/\/$/, ''),
    smtpUrl: env.SMTP_URL || undefined,
    mailFrom: env.MAIL_FROM || 'FVG <no-reply@fvg.local>',
    jobsEnabled: bool(env.JOBS_ENABLED, true),
    jobsConcurrency: Math.max(1, int('JOBS_CONCURRENCY', env.JOBS_CONCURRENCY, 2)),
    backup: {
      dir: path.resolve(env.BACKUP_DIR || path.join(dataDir, 'backups')),
      cron: backupCron(env.BACKUP_CRON),
      keep: Math.max(1, int('BACKUP_KEEP', env.BACKUP_KEEP, 14)),
    },
    jwtSecret: env.JWT_SECRET || undefined,
    tokenTtlHours: int('TOKEN_TTL_HOURS', env.TOKEN_TTL_HOURS, 12),
    loginMaxAttempts: int('LOGIN_MAX_ATTEMPTS', env.LOGIN_MAX_ATTEMPTS, 5),
    loginWindowSeconds: int('LOGIN_WINDOW_SECONDS', env.LOGIN_WINDOW_SECONDS, 900),
    logLevel: env.LOG_LEVEL || 'info',
    metricsToken: metricsToken(env.METRICS_TOKEN),
    metricsAllow: addressList('METRICS_ALLOW', env.METRICS_ALLOW),
    otelEndpoint: env.OTEL_EXPORTER_OTLP_ENDPOINT || undefined,
    seedDemo: bool(env.SEED_DEMO, true),
    trustProxy: trustProxy(env.TRUST_PROXY),
    redisUrl: env.REDIS_URL || undefined,
    hubKeepAliveMs: int('HUB_KEEP_ALIVE_SECONDS', env.HUB_KEEP_ALIVE_SECONDS, 15) * 1000,
    hubClientTimeoutMs: int('HUB_CLIENT_TIMEOUT_SECONDS', env.HUB_CLIENT_TIMEOUT_SECONDS, 30) * 1000,
    hubRecheckMs: Math.max(1, int('HUB_RECHECK_SECONDS', env.HUB_RECHECK_SECONDS, 30)) * 1000,
    hubMaxMessageSize: int('HUB_MAX_MESSAGE_BYTES', env.HUB_MAX_MESSAGE_BYTES, 32 * 1024),
    webDist: path.resolve(env.WEB_DIST || path.join(repoRoot, 'apps/web/dist')),
    documentMaxBytes: Math.max(1, int('DOCUMENT_MAX_BYTES', env.DOCUMENT_MAX_BYTES, 50 * 1024 * 1024)),
    s3: env.S3_BUCKET
      ? {
          bucket: env.S3_BUCKET,
          endpoint: env.S3_ENDPOINT || undefined,
          region: env.S3_REGION || 'us-east-1',
          accessKeyId: env.S3_ACCESS_KEY_ID || undefined,
          secretAccessKey: env.S3_SECRET_ACCESS_KEY || undefined,
          forcePathStyle: bool(env.S3_FORCE_PATH_STYLE, false),
        }
      : undefined,
    embeddedSharedBuffersMb: Math.max(
      16,
      int('PG_SHARED_BUFFERS', env.PG_SHARED_BUFFERS, defaultSharedBuffersMb()),
    ),
    pgRestartMax: int('PG_RESTART_MAX', env.PG_RESTART_MAX, 5),
    pgRestartWindowSeconds: Math.max(1, int('PG_RESTART_WINDOW_SECONDS', env.PG_RESTART_WINDOW_SECONDS, 600)),
    sandbox: {
      delays: sandboxDelays(env.SANDBOX_DELAYS),
      controlPercent: percent('SANDBOX_CONTROL_PERCENT', env.SANDBOX_CONTROL_PERCENT, 20),
      notReleasedPercent: percent('SANDBOX_NOT_RELEASED_PERCENT', env.SANDBOX_NOT_RELEASED_PERCENT, 25),
      seed: env.SANDBOX_SEED || 'fvg',
    },
  };
}
