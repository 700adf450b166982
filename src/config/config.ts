import { z } from 'zod';

/**
 * Docport's configuration, parsed once at startup from the environment and passed
 * down explicitly. Nothing else reads process.env. Every problem is reported at
 * once, by variable name; values are never echoed (several are secrets).
 */
const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');
const port = z.coerce.number().int().min(0).max(65535);
const positiveInt = z.coerce.number().int().positive();
const nonEmpty = z.string().trim().min(1);

export const configSchema = z.object({
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error']).default('info'),
  HTTP_HOST: nonEmpty.default('0.0.0.0'),
  HTTP_PORT: port.default(8080),
  METRICS_PORT: port.default(9090),

  DATABASE_URL: z
    .url({ protocol: /^postgres(ql)?$/, error: 'must be a postgres:// or postgresql:// URL' })
    .optional(),
  DATABASE_POOL_SIZE: positiveInt.max(200).default(10),

  KUBECONFIG: nonEmpty.optional(),
  WATCH_NAMESPACE: nonEmpty.optional(),
  EXPORT_NAMESPACE: nonEmpty.default('docport'),

  S3_ENDPOINT: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional(),
  S3_REGION: nonEmpty.default('us-east-1'),
  S3_BUCKET: z
    .string()
    .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'must be a valid S3 bucket name')
    .optional(),
  S3_ACCESS_KEY_ID: nonEmpty.optional(),
  S3_SECRET_ACCESS_KEY: nonEmpty.optional(),
  S3_FORCE_PATH_STYLE: bool.default(true),
  PRESIGN_TTL_SECONDS: positiveInt.min(60).max(7 * 24 * 3600).default(24 * 3600),

  RENDER_EXECUTOR: z.enum(['kubernetes', 'local']).default('kubernetes'),
  CHROMIUM_PATH: nonEmpty.default('/usr/bin/chromium'),

  // --- REST API settings (issue 3) ---
  API_BODY_LIMIT_BYTES: positiveInt.min(1024).max(16 * 1024 * 1024).default(128 * 1024),
  RATE_LIMIT_ANALYTICS_PER_HOUR: positiveInt.default(100),
  RATE_LIMIT_EXPORT_PER_HOUR: positiveInt.default(1000),
  RATE_LIMIT_SEARCH_PER_HOUR: positiveInt.default(10_000),
  API_DRAIN_SECONDS: z.coerce.number().int().min(0).max(120).default(5),

  // --- controller settings (issue 4) ---
  CONTROLLER_ID: nonEmpty.optional(),
  LEADER_ELECT: bool.default(true),
  LEADER_ELECTION_NAMESPACE: nonEmpty.optional(),
  LEADER_ELECTION_LEASE_NAME: nonEmpty.default('docport-controller'),
  CONTROLLER_WORKERS: positiveInt.max(64).default(4),
  CONTROLLER_RESYNC_SECONDS: positiveInt.min(10).default(600),
  VALUES_REFRESH_FRACTION: z.coerce.number().gt(0).lt(1).default(0.2),
  HELMRELEASE_API_VERSION: z.enum(['helm.toolkit.fluxcd.io/v2', 'helm.toolkit.fluxcd.io/v2beta2', 'helm.toolkit.fluxcd.io/v2beta1']).default('helm.toolkit.fluxcd.io/v2'),
  RENDER_IMAGE: nonEmpty.default('docport/docport:0.1.0'),
  RENDER_IMAGE_PULL_POLICY: z.enum(['Always', 'IfNotPresent', 'Never']).default('IfNotPresent'),
  RENDER_SERVICE_ACCOUNT: nonEmpty.default('docport-renderer'),
  RENDER_SECRET_NAME: nonEmpty.default('docport-render'),
  RENDER_BACKOFF_LIMIT: z.coerce.number().int().min(0).max(10).default(2),
  RENDER_DEADLINE_SECONDS: positiveInt.default(3600),
  RENDER_TTL_SECONDS: z.coerce.number().int().min(0).default(86400),
  RENDER_CPU_REQUEST: nonEmpty.default('500m'),
  RENDER_MEMORY_REQUEST: nonEmpty.default('1Gi'),
  RENDER_CPU_LIMIT: nonEmpty.default('2'),
  RENDER_MEMORY_LIMIT: nonEmpty.default('2Gi'),
  /** JSON array; the local executor's render command. Default: this installation's `docport render`. */
  RENDER_COMMAND: z
    .string()
    .transform((text, ctx) => {
      try {
        const value: unknown = JSON.parse(text);
        if (Array.isArray(value) && value.length > 0 && value.every((v): v is string => typeof v === 'string')) return value;
      } catch {
        // reported below
      }
      ctx.addIssue({ code: 'custom', message: 'must be a JSON array of strings, e.g. ["node","dist/src/cli/main.js","render"]' });
      return z.NEVER;
    })
    .optional(),

  // --- self-hosted docs server settings (issue 6) ---
  /** Directory with files `url`, `version`, `sha256` (the chart mounts them from a ConfigMap). */
  BUNDLE_DIR: nonEmpty.optional(),
  BUNDLE_URL: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional(),
  BUNDLE_SHA256: z.string().regex(/^[0-9a-fA-F]{64}$/, 'must be 64 hex digits').optional(),
  BUNDLE_VERSION: nonEmpty.optional(),
  SERVE_ROOT: nonEmpty.default('/var/lib/docport/site'),
  MAX_BUNDLE_BYTES: positiveInt.default(2 * 1024 * 1024 * 1024),
  BUNDLE_FETCH_ATTEMPTS: positiveInt.max(20).default(6),
  BUNDLE_FETCH_TIMEOUT_SECONDS: positiveInt.default(600),

  // --- renderer settings (issue 5) ---
  // Defaults and reasons are in docs/renderer.md.
  RENDER_CONCURRENCY: positiveInt.max(32).default(3),
  RENDER_PAGE_TIMEOUT_SECONDS: positiveInt.max(600).default(30),
  RENDER_PAGE_RETRIES: z.coerce.number().int().min(0).max(10).default(2),
  RENDER_QUIET_MS: z.coerce.number().int().min(0).max(10_000).default(300),
  RENDER_MAX_PAGES: positiveInt.max(1_000_000).default(10_000),
  RENDER_MAX_ASSET_BYTES: positiveInt.default(50 * 1024 * 1024),
  RENDER_MAX_EXPORT_BYTES: positiveInt.default(4 * 1024 * 1024 * 1024),
  RENDER_ASSET_HOSTS: z
    .string()
    .transform((v) => v.split(',').map((h) => h.trim().toLowerCase()).filter((h) => h !== ''))
    .pipe(z.array(z.string().regex(/^[a-z0-9]([-a-z0-9.]*[a-z0-9])?(:\d{1,5})?$/, 'must be a comma-separated list of host names (host or host:port)')))
    .default([]),
  RENDER_ALLOW_PRIVATE_NETWORKS: bool.default(false),
  RENDER_WORK_DIR: nonEmpty.optional(),
});

export type Config = Readonly<z.output<typeof configSchema>>;

/** Variables whose values must never be printed. */
export const SECRET_VARIABLES = new Set(['DATABASE_URL', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY']);

export class ConfigError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

export function parseConfig(env: Readonly<Record<string, string | undefined>>): Config {
  // Treat empty strings as unset: Helm and shells often export VAR="".
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const result = configSchema.safeParse(present);
  const problems: string[] = result.success
    ? []
    : result.error.issues.map((issue) => `${issue.path.join('.') || '(environment)'}: ${issue.message}`);
  if (result.success) problems.push(...crossFieldProblems(result.data));
  if (problems.length > 0 || !result.success) throw new ConfigError(problems);
  return Object.freeze(result.data);
}

function crossFieldProblems(c: z.output<typeof configSchema>): string[] {
  const problems: string[] = [];
  const s3 = [c.S3_ENDPOINT, c.S3_BUCKET, c.S3_ACCESS_KEY_ID, c.S3_SECRET_ACCESS_KEY];
  if (c.S3_ACCESS_KEY_ID !== undefined && c.S3_SECRET_ACCESS_KEY === undefined) {
    problems.push('S3_SECRET_ACCESS_KEY: required when S3_ACCESS_KEY_ID is set');
  }
  if (c.S3_SECRET_ACCESS_KEY !== undefined && c.S3_ACCESS_KEY_ID === undefined) {
    problems.push('S3_ACCESS_KEY_ID: required when S3_SECRET_ACCESS_KEY is set');
  }
  if (s3.some((v) => v !== undefined) && c.S3_BUCKET === undefined) {
    problems.push('S3_BUCKET: required when any S3_* setting is given');
  }
  if (c.HTTP_PORT !== 0 && c.HTTP_PORT === c.METRICS_PORT) {
    problems.push('METRICS_PORT: must differ from HTTP_PORT');
  }
  return problems;
}
