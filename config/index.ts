import Joi from 'joi';
import { ianaTimeZone } from './timeZone';
import { Duration } from 'luxon';

/** Languages the service publishes content in; the first is not special, see DEFAULT_LANGUAGE. */
export const LANGUAGES = ['en', 'fr', 'de'] as const;
export type Language = (typeof LANGUAGES)[number];

export const DEFAULT_PORT = 8080;
export const DEFAULT_HOST = '127.0.0.1';
export const DEFAULT_LANGUAGE: Language = 'en';
export const DEFAULT_TIMEZONE = 'UTC';
export const DEFAULT_DATABASE = 'calendar';
export const DEFAULT_INDEX_PREFIX = 'calendar';
export const DEFAULT_LOG_LEVEL = 'info';
/** Upper bound of every timeout and interval setting: far below what a timer can hold (2³¹-1 ms). */
export const MAX_DURATION_MS = 600_000;
/** Elasticsearch refuses requests over 100 MB (`http.max_content_length`). */
export const MAX_BULK_FLUSH_BYTES = 50 * 1024 * 1024;
/** Upper bound of the per-minute rate limits. */
export const MAX_RATE_PER_MINUTE = 1_000_000;
export const DEFAULT_SEARCH_TIMEOUT_MS = 2_000;
export const DEFAULT_STORAGE_TIMEOUT_MS = 2_000;
export const DEFAULT_BODY_LIMIT_BYTES = 1024 * 1024;
/** A whole body, once the headers are in: 1 MiB at about 17 KB/s. */
export const DEFAULT_BODY_TIMEOUT_MS = 60_000;
/** Within docker's 10 s between SIGTERM and SIGKILL. */
export const DEFAULT_SHUTDOWN_GRACE_MS = 8_000;
export const DEFAULT_SYNC_POLL_MS = 200;
export const DEFAULT_SYNC_BATCH_SIZE = 500;
export const DEFAULT_SYNC_LEASE_MS = 30_000;
export const DEFAULT_BULK_FLUSH_BYTES = 5 * 1024 * 1024;
export const DEFAULT_BULK_FLUSH_MS = 50;
export const DEFAULT_BULK_CONCURRENCY = 2;
export const DEFAULT_REFRESH_INTERVAL = '500ms';
/**
 * How long an API process trusts a key it verified: a revocation takes effect at once in the
 * process that makes it, within this time in the others (keyed requests then skip MongoDB).
 */
export const DEFAULT_API_KEY_CACHE_MS = 1_000;
/** Longest accepted: a revoked key must stop working soon everywhere. */
export const MAX_API_KEY_CACHE_MS = 60_000;
/** How long a write with `Prefer: wait-for-index` waits to be searchable (CONTRACT part 8: 5 s). */
export const DEFAULT_WAIT_FOR_INDEX_MS = 5_000;
/** Rate limits, per minute (token buckets refilled continuously; the burst is one minute's worth). */
export const DEFAULT_RATE_LIMIT_WRITES_PER_KEY = 600;
export const DEFAULT_RATE_LIMIT_WRITES_PER_IP = 1200;
export const DEFAULT_RATE_LIMIT_AUTH_FAILURES_PER_IP = 30;
/** Walks started per minute per address: each holds an Elasticsearch point in time for 5 minutes. */
export const DEFAULT_RATE_LIMIT_WALKS_PER_IP = 120;
/** Reverse proxies in front of the API whose X-Forwarded-For entries identify the client. */
export const DEFAULT_RATE_LIMIT_TRUSTED_PROXIES = 0;
/** Webhooks (EXTENSIONS part 18): how long a failing delivery is retried before its subscription is disabled. */
export const DEFAULT_WEBHOOK_RETRY_HOURS = 24;
/** Thirty days: a receiver down longer than that is gone. */
export const MAX_WEBHOOK_RETRY_HOURS = 720;
export const DEFAULT_WEBHOOK_TIMEOUT_MS = 10_000;
/** The first retry comes after about a second; each next one waits twice as long, at most an hour. */
export const DEFAULT_WEBHOOK_RETRY_BASE_MS = 1_000;
export const DEFAULT_WEBHOOK_RETRY_MAX_MS = 3_600_000;
/** Deliveries in flight at once per worker process (one socket each). */
export const DEFAULT_WEBHOOK_CONCURRENCY = 8;
/** Of those, at most this many to one receiver (scheme, host and port): a slow one cannot hold every slot. */
export const DEFAULT_WEBHOOK_CONCURRENCY_PER_TARGET = 4;
export const DEFAULT_WEBHOOK_POLL_MS = 500;
/** Development and tests keep a generated key here when WEBHOOK_SECRET_KEY is unset (relative to the working directory). */
export const DEFAULT_WEBHOOK_SECRET_KEY_FILE = '.data/webhook-secret.key';
/** Sites call the API from their pages: any origin may, unless CORS_ORIGINS lists some (or `none`). */
export const DEFAULT_CORS_ORIGINS = '*';
/** Seconds shared caches may serve an anonymous answer without revalidating: 0, they revalidate every time. */
export const DEFAULT_CACHE_MAX_AGE = 0;
/** One year, the longest `max-age` caches are expected to honour. */
export const MAX_CACHE_MAX_AGE = 31_536_000;
/** How long the change feed keeps a change (`/changes`): older tokens are 410. */
export const DEFAULT_CHANGES_RETENTION = '30d';
/** How old a change must be before the feed hands it out: a write still committing is never passed over. */
export const DEFAULT_CHANGES_SETTLE_MS = 1_000;
/** Shortest TOKEN_SECRET accepted: 32 characters of a random string. */
export const MIN_TOKEN_SECRET_LENGTH = 32;

const DURATION_UNITS_MS = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** `30d`, `12h`, `90m`, `45s` in milliseconds. */
function durationMs(text: string): number {
  const [, amount, unit] = /^(\d+)([smhd])$/.exec(text) ?? [];
  return Number(amount) * DURATION_UNITS_MS[unit as keyof typeof DURATION_UNITS_MS];
}
/** Most occurrences a recurring event may have between now and the horizon (EXTENSIONS part 11). */
export const DEFAULT_RECURRENCE_MAX_OCCURRENCES = 1000;
/** How far ahead occurrences are checked and indexed: an ISO 8601 duration. */
export const DEFAULT_RECURRENCE_HORIZON = 'P2Y';

export interface Config {
  env: 'development' | 'test' | 'production';
  http: {
    host: string;
    port: number;
    bodyLimitBytes: number;
    /** How long a client may take to send its whole body (408 after). */
    bodyTimeoutMs: number;
    /** How long a shutdown waits for requests in flight before closing their connections. */
    shutdownGraceMs: number;
    /** Origins whose pages may call the API (CORS): any (`'*'`), or only these (none when empty). */
    corsOrigins: '*' | string[];
    /** `max-age` of anonymous answers (`Cache-Control: public`); 0 sends `no-cache`. */
    cacheMaxAgeSeconds: number;
  };
  siteUrl: string;
  /** Public base URL of this API, used in `rest_url`s stored with records. */
  apiUrl: string;
  defaultLanguage: Language;
  defaultTimezone: string;
  /** Unset: `npm start` starts the embedded jongodb / Elasticsearch servers itself. */
  mongo: { url?: string; database: string; timeoutMs: number };
  elasticsearch: {
    url?: string;
    indexPrefix: string;
    timeoutMs: number;
    /** INDEX_REFRESH_INTERVAL as Elasticsearch reads it ("500ms", "1s"), and in milliseconds. */
    refreshInterval: string;
    refreshIntervalMs: number;
  };
  sync: {
    inProcess: boolean;
    pollMs: number;
    batchSize: number;
    leaseMs: number;
    flushBytes: number;
    flushMs: number;
    concurrency: number;
    /** The longest a write with `Prefer: wait-for-index` waits for its change to be searchable. */
    waitForIndexMs: number;
  };
  auth: {
    bootstrapAdminKey: boolean;
    /** How long a verified key is trusted without MongoDB (0: every request reads it). */
    keyCacheMs: number;
  };
  /** Per-minute limits on writes (per key, per client IP), failed authentications and walks started (per IP). */
  rateLimit: {
    enabled: boolean;
    writesPerKey: number;
    writesPerIp: number;
    authFailuresPerIp: number;
    /** Walks started (`cursor=`, exports) per client IP. */
    walksPerIp: number;
    /** 0: the client address is the socket's; n: the n-th X-Forwarded-For entry from the right. */
    trustedProxies: number;
  };
  /** Cursors and change-feed tokens (EXTENSIONS 16, 17). */
  integration: {
    /**
     * Signs cursors and change tokens. Unset: one random secret is kept in MongoDB and shared by
     * every process using the database (src/storage/tokenSecret.ts).
     */
    tokenSecret?: string;
    changesRetentionMs: number;
    changesSettleMs: number;
  };
  webhooks: {
    /** AES-256 key (32 bytes) sealing subscription secrets; unset: see secretKeyFile. */
    secretKey?: Buffer;
    /** Where development and tests keep a generated key; null in production (webhooks stay off without a key). */
    secretKeyFile: string | null;
    allowPrivate: boolean;
    retryHours: number;
    timeoutMs: number;
    retryBaseMs: number;
    retryMaxMs: number;
    concurrency: number;
    /** Attempts in flight to one receiver (at most `concurrency`). */
    concurrencyPerTarget: number;
    pollMs: number;
  };
  /** Recurring events: occurrences are indexed from a year before now to `horizonDays` ahead. */
  recurrence: { maxOccurrences: number; horizonDays: number };
  logLevel: string;
}

/** CORS_ORIGINS: `*`, `none`, or origins separated by commas (`https://example.org,http://localhost:3000`). */
function corsOrigins(setting: string): '*' | string[] {
  if (setting === '*') return '*';
  if (setting === 'none') return [];
  return setting.split(',').map((entry) => {
    const origin = entry.trim();
    // Browsers send an origin in this form (lower case, no default port): another never matches.
    const written = URL.canParse(origin) ? new URL(origin) : null;
    if (!written || !/^https?:$/.test(written.protocol) || written.origin !== origin) {
      const form = written && /^https?:$/.test(written.protocol) ? ` (write it ${written.origin})` : '';
      throw new Error(`"${origin}" is not an origin as browsers send it${form}: scheme://host[:port], or * or none`);
    }
    return origin;
  });
}

/** An http(s) address links are built on: every link appends a path to it, so no query or fragment. */
const baseUrl = () =>
  Joi.string()
    .uri({ scheme: ['http', 'https'] })
    .pattern(/^[^?#]*$/)
    .messages({ 'string.pattern.base': '{{#label}} must be an address without a query (?) or fragment (#)' });

const schema = Joi.object({
  NODE_ENV: Joi.string().valid('development', 'test', 'production').default('development'),
  HOST: Joi.string().hostname().default(DEFAULT_HOST),
  PORT: Joi.number().integer().min(0).max(65535).default(DEFAULT_PORT),
  BODY_LIMIT_BYTES: Joi.number().integer().min(1024).default(DEFAULT_BODY_LIMIT_BYTES),
  BODY_TIMEOUT_MS: Joi.number().integer().min(1000).max(MAX_DURATION_MS).default(DEFAULT_BODY_TIMEOUT_MS),
  SHUTDOWN_GRACE_MS: Joi.number().integer().min(0).max(MAX_DURATION_MS).default(DEFAULT_SHUTDOWN_GRACE_MS),
  CORS_ORIGINS: Joi.string()
    .custom((value: string) => corsOrigins(value), 'origins')
    .default(DEFAULT_CORS_ORIGINS),
  CACHE_MAX_AGE: Joi.number().integer().min(0).max(MAX_CACHE_MAX_AGE).default(DEFAULT_CACHE_MAX_AGE),
  SITE_URL: baseUrl(),
  PUBLIC_API_URL: baseUrl(),
  DEFAULT_LANGUAGE: Joi.string()
    .valid(...LANGUAGES)
    .default(DEFAULT_LANGUAGE),
  DEFAULT_TIMEZONE: Joi.string()
    // Stored under its IANA name, as event time zones are (`europe/paris` → `Europe/Paris`).
    .custom((value: string) => {
      const zone = ianaTimeZone(value);
      if (zone === null) throw new Error(`${value} is not an IANA time zone`);
      return zone;
    }, 'IANA time zone')
    .default(DEFAULT_TIMEZONE),
  MONGO_URL: Joi.string().uri({ scheme: ['mongodb', 'mongodb+srv'] }),
  MONGO_DATABASE: Joi.string()
    .pattern(/^[A-Za-z0-9_-]{1,60}$/)
    .default(DEFAULT_DATABASE),
  MONGO_TIMEOUT_MS: Joi.number().integer().min(100).max(MAX_DURATION_MS).default(DEFAULT_STORAGE_TIMEOUT_MS),
  ELASTICSEARCH_URL: Joi.string().uri({ scheme: ['http', 'https'] }),
  INDEX_PREFIX: Joi.string()
    .pattern(/^[a-z0-9][a-z0-9_-]{0,40}$/)
    .default(DEFAULT_INDEX_PREFIX),
  ELASTICSEARCH_TIMEOUT_MS: Joi.number().integer().min(100).max(MAX_DURATION_MS).default(DEFAULT_SEARCH_TIMEOUT_MS),
  INDEX_REFRESH_INTERVAL: Joi.string()
    .pattern(/^\d+(ms|s)$/)
    .default(DEFAULT_REFRESH_INTERVAL),
  SYNC_IN_PROCESS: Joi.boolean().default(true),
  SYNC_POLL_MS: Joi.number().integer().min(10).max(MAX_DURATION_MS).default(DEFAULT_SYNC_POLL_MS),
  SYNC_BATCH_SIZE: Joi.number().integer().min(1).max(10_000).default(DEFAULT_SYNC_BATCH_SIZE),
  SYNC_LEASE_MS: Joi.number().integer().min(1000).max(MAX_DURATION_MS).default(DEFAULT_SYNC_LEASE_MS),
  BULK_FLUSH_BYTES: Joi.number().integer().min(1024).max(MAX_BULK_FLUSH_BYTES).default(DEFAULT_BULK_FLUSH_BYTES),
  BULK_FLUSH_MS: Joi.number().integer().min(1).max(MAX_DURATION_MS).default(DEFAULT_BULK_FLUSH_MS),
  BULK_CONCURRENCY: Joi.number().integer().min(1).max(16).default(DEFAULT_BULK_CONCURRENCY),
  WAIT_FOR_INDEX_MS: Joi.number().integer().min(100).max(MAX_DURATION_MS).default(DEFAULT_WAIT_FOR_INDEX_MS),
  BOOTSTRAP_ADMIN_KEY: Joi.boolean(),
  API_KEY_CACHE_MS: Joi.number().integer().min(0).max(MAX_API_KEY_CACHE_MS).default(DEFAULT_API_KEY_CACHE_MS),
  RATE_LIMIT: Joi.boolean(),
  RATE_LIMIT_WRITES_PER_KEY: Joi.number()
    .integer()
    .min(1)
    .max(MAX_RATE_PER_MINUTE)
    .default(DEFAULT_RATE_LIMIT_WRITES_PER_KEY),
  RATE_LIMIT_WRITES_PER_IP: Joi.number()
    .integer()
    .min(1)
    .max(MAX_RATE_PER_MINUTE)
    .default(DEFAULT_RATE_LIMIT_WRITES_PER_IP),
  RATE_LIMIT_AUTH_FAILURES_PER_IP: Joi.number()
    .integer()
    .min(1)
    .max(MAX_RATE_PER_MINUTE)
    .default(DEFAULT_RATE_LIMIT_AUTH_FAILURES_PER_IP),
  RATE_LIMIT_WALKS_PER_IP: Joi.number()
    .integer()
    .min(1)
    .max(MAX_RATE_PER_MINUTE)
    .default(DEFAULT_RATE_LIMIT_WALKS_PER_IP),
  RATE_LIMIT_TRUSTED_PROXIES: Joi.number().integer().min(0).max(10).default(DEFAULT_RATE_LIMIT_TRUSTED_PROXIES),
  TOKEN_SECRET: Joi.string().min(MIN_TOKEN_SECRET_LENGTH),
  CHANGES_RETENTION: Joi.string()
    .pattern(/^[1-9]\d{0,5}[smhd]$/)
    .messages({ 'string.pattern.base': '{{#label}} must be a duration such as 30d, 12h, 90m or 3600s' })
    .default(DEFAULT_CHANGES_RETENTION),
  CHANGES_SETTLE_MS: Joi.number().integer().min(0).max(MAX_DURATION_MS).default(DEFAULT_CHANGES_SETTLE_MS),
  WEBHOOK_SECRET_KEY: Joi.string().custom((value: string) => {
    const key = Buffer.from(value, 'base64');
    if (key.length !== 32 || key.toString('base64') !== value.replace(/\s/g, ''))
      throw new Error('must be 32 bytes in base64 (openssl rand -base64 32)');
    return key;
  }, 'AES-256 key'),
  WEBHOOK_SECRET_KEY_FILE: Joi.string().default(DEFAULT_WEBHOOK_SECRET_KEY_FILE),
  WEBHOOK_ALLOW_PRIVATE: Joi.boolean().default(false),
  WEBHOOK_RETRY_HOURS: Joi.number().positive().max(MAX_WEBHOOK_RETRY_HOURS).default(DEFAULT_WEBHOOK_RETRY_HOURS),
  WEBHOOK_TIMEOUT_MS: Joi.number().integer().min(100).max(MAX_DURATION_MS).default(DEFAULT_WEBHOOK_TIMEOUT_MS),
  WEBHOOK_RETRY_BASE_MS: Joi.number().integer().min(10).max(MAX_DURATION_MS).default(DEFAULT_WEBHOOK_RETRY_BASE_MS),
  WEBHOOK_RETRY_MAX_MS: Joi.number().integer().min(10).max(86_400_000).default(DEFAULT_WEBHOOK_RETRY_MAX_MS),
  WEBHOOK_CONCURRENCY: Joi.number().integer().min(1).max(256).default(DEFAULT_WEBHOOK_CONCURRENCY),
  WEBHOOK_CONCURRENCY_PER_TARGET: Joi.number()
    .integer()
    .min(1)
    .max(256)
    .default(DEFAULT_WEBHOOK_CONCURRENCY_PER_TARGET),
  WEBHOOK_POLL_MS: Joi.number().integer().min(10).max(MAX_DURATION_MS).default(DEFAULT_WEBHOOK_POLL_MS),
  RECURRENCE_MAX_OCCURRENCES: Joi.number().integer().min(1).max(100_000).default(DEFAULT_RECURRENCE_MAX_OCCURRENCES),
  RECURRENCE_HORIZON: Joi.string()
    .custom((value: string) => {
      const days = Duration.fromISO(value).as('days');
      if (!Number.isFinite(days) || days < 1 || days > 10 * 366)
        throw new Error('must be an ISO 8601 duration between P1D and P10Y, such as P2Y');
      return Math.ceil(days);
    }, 'ISO 8601 duration')
    .default(DEFAULT_RECURRENCE_HORIZON),
  LOG_LEVEL: Joi.string()
    .valid('fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent')
    .default(DEFAULT_LOG_LEVEL),
}).unknown(true);

/** Every environment variable the configuration reads (docker-compose and the README use these names). */
export const CONFIG_ENV_VARS: readonly string[] = Object.keys(schema.describe().keys as Record<string, unknown>);

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** `http://HOST:PORT`, an IPv6 host in brackets. */
export function httpOrigin(host: string, port: number): string {
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

/** The API's address when PUBLIC_API_URL is unset; a free port is only known once listening. */
function defaultApiUrl(host: string, port: number): string {
  if (port === 0) {
    throw new ConfigError(
      'invalid setting PUBLIC_API_URL: PORT=0 (any free port) needs it, as every link starts with it',
    );
  }
  return httpOrigin(host, port);
}

/** Reads and validates the configuration from `env`; a bad setting throws one line naming it. */
/** Milliseconds of an interval INDEX_REFRESH_INTERVAL accepts ("500ms", "2s"). */
function intervalMs(text: string): number {
  return Number.parseInt(text, 10) * (text.endsWith('ms') ? 1 : 1000);
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const { value, error } = schema.validate(env, { abortEarly: true, convert: true });
  if (error) {
    const detail = error.details[0];
    throw new ConfigError(`invalid setting ${detail?.path.join('.')}: ${detail?.message}`);
  }
  const v = value as Record<string, never>;
  const envName = v.NODE_ENV as Config['env'];
  const apiUrl = ((v.PUBLIC_API_URL as string | undefined) ?? defaultApiUrl(v.HOST, v.PORT)).replace(/\/+$/, '');
  return {
    env: envName,
    http: {
      host: v.HOST,
      port: v.PORT,
      bodyLimitBytes: v.BODY_LIMIT_BYTES,
      bodyTimeoutMs: v.BODY_TIMEOUT_MS,
      shutdownGraceMs: v.SHUTDOWN_GRACE_MS,
      corsOrigins: v.CORS_ORIGINS,
      cacheMaxAgeSeconds: v.CACHE_MAX_AGE,
    },
    apiUrl,
    // Unset, the site is the API's own address (a first run has no other).
    siteUrl: ((v.SITE_URL as string | undefined) ?? apiUrl).replace(/\/+$/, ''),
    defaultLanguage: v.DEFAULT_LANGUAGE,
    defaultTimezone: v.DEFAULT_TIMEZONE,
    mongo: { url: v.MONGO_URL, database: v.MONGO_DATABASE, timeoutMs: v.MONGO_TIMEOUT_MS },
    elasticsearch: {
      url: v.ELASTICSEARCH_URL,
      indexPrefix: v.INDEX_PREFIX,
      timeoutMs: v.ELASTICSEARCH_TIMEOUT_MS,
      refreshInterval: v.INDEX_REFRESH_INTERVAL,
      refreshIntervalMs: intervalMs(v.INDEX_REFRESH_INTERVAL),
    },
    sync: {
      inProcess: v.SYNC_IN_PROCESS,
      pollMs: v.SYNC_POLL_MS,
      batchSize: v.SYNC_BATCH_SIZE,
      leaseMs: v.SYNC_LEASE_MS,
      flushBytes: v.BULK_FLUSH_BYTES,
      flushMs: v.BULK_FLUSH_MS,
      concurrency: v.BULK_CONCURRENCY,
      waitForIndexMs: v.WAIT_FOR_INDEX_MS,
    },
    // The first-run convenience key is for the embedded setup only, never production.
    auth: { bootstrapAdminKey: v.BOOTSTRAP_ADMIN_KEY ?? envName === 'development', keyCacheMs: v.API_KEY_CACHE_MS },
    // Tests send many writes from one address; a test that checks the limits turns them on.
    rateLimit: {
      enabled: v.RATE_LIMIT ?? envName !== 'test',
      writesPerKey: v.RATE_LIMIT_WRITES_PER_KEY,
      writesPerIp: v.RATE_LIMIT_WRITES_PER_IP,
      authFailuresPerIp: v.RATE_LIMIT_AUTH_FAILURES_PER_IP,
      walksPerIp: v.RATE_LIMIT_WALKS_PER_IP,
      trustedProxies: v.RATE_LIMIT_TRUSTED_PROXIES,
    },
    integration: {
      tokenSecret: v.TOKEN_SECRET,
      changesRetentionMs: durationMs(v.CHANGES_RETENTION),
      changesSettleMs: v.CHANGES_SETTLE_MS,
    },
    webhooks: {
      secretKey: v.WEBHOOK_SECRET_KEY,
      // A generated key is for development and tests: production sets WEBHOOK_SECRET_KEY or has no webhooks.
      secretKeyFile: envName === 'production' ? null : v.WEBHOOK_SECRET_KEY_FILE,
      allowPrivate: v.WEBHOOK_ALLOW_PRIVATE,
      retryHours: v.WEBHOOK_RETRY_HOURS,
      timeoutMs: v.WEBHOOK_TIMEOUT_MS,
      retryBaseMs: v.WEBHOOK_RETRY_BASE_MS,
      retryMaxMs: v.WEBHOOK_RETRY_MAX_MS,
      concurrency: v.WEBHOOK_CONCURRENCY,
      concurrencyPerTarget: Math.min(v.WEBHOOK_CONCURRENCY_PER_TARGET, v.WEBHOOK_CONCURRENCY),
      pollMs: v.WEBHOOK_POLL_MS,
    },
    recurrence: {
      maxOccurrences: v.RECURRENCE_MAX_OCCURRENCES,
      // The default passes through Joi's custom() unconverted.
      horizonDays:
        typeof v.RECURRENCE_HORIZON === 'number'
          ? v.RECURRENCE_HORIZON
          : Math.ceil(Duration.fromISO(v.RECURRENCE_HORIZON as string).as('days')),
    },
    logLevel: v.LOG_LEVEL,
  };
}
