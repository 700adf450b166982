// A real API server for one test file: its own database, namespace (with the CRD) and bucket,
// wired from a parsed config by the same composition root as `docport api`, on loopback.
import pg from 'pg';
import { KubernetesStaticExports } from '../../../src/adapters/kubernetes/static-export-client.js';
import { PgAssistantEvents } from '../../../src/adapters/postgres/pg-assistant-events.js';
import { PgIdentityStore } from '../../../src/adapters/postgres/pg-identity-store.js';
import { PgSearchIndex } from '../../../src/adapters/postgres/pg-search-index.js';
import { startApiServer, type RunningApi } from '../../../src/api/server.js';
import { parseConfig } from '../../../src/config/config.js';
import { generateApiKey } from '../../../src/identity/api-keys.js';
import type { KeyType, Organization, Plan, Project } from '../../../src/identity/model.js';
import { createLogger } from '../../../src/observability/logger.js';
import { applyStaticExportCrd } from '../../support/crd.js';
import { cleanup, uniqueName } from '../../support/environment.js';
import { testNamespace, type TestNamespace } from '../../support/kubernetes.js';
import { testDatabase } from '../../support/postgres.js';
import { testBucket, type TestBucket } from '../../support/s3.js';

export interface Tenant {
  org: Organization;
  project: Project;
  adminKey: string;
  assistantKey: string;
}

export interface Reply {
  status: number;
  headers: Headers;
  text: string;
  json: unknown;
}

export interface CallOptions {
  key?: string;
  body?: unknown;
  /** Sent as is (for malformed JSON and size tests). */
  rawBody?: string | Buffer;
  headers?: Record<string, string>;
  base?: string;
}

export interface ApiHarness {
  api: RunningApi;
  databaseUrl: string;
  ns: TestNamespace;
  bucket: TestBucket;
  /** The test's own connection pool, for seeding and for checking what was (not) written. */
  pool: pg.Pool;
  identity: PgIdentityStore;
  searchIndex: PgSearchIndex;
  events: PgAssistantEvents;
  exports: KubernetesStaticExports;
  /** Every log line the servers wrote. */
  logs: string[];
  env: Record<string, string>;
  call(method: string, path: string, options?: CallOptions): Promise<Reply>;
  tenant(plan?: Plan, name?: string): Promise<Tenant>;
  apiKey(organizationId: string, type: KeyType): Promise<{ key: string; id: string }>;
  /** One more API server on the same database and cluster (another replica). */
  replica(options?: { env?: Record<string, string>; clock?: () => Date }): Promise<RunningApi>;
}

export async function startApiHarness(options: { env?: Record<string, string>; clock?: () => Date } = {}): Promise<ApiHarness> {
  const [databaseUrl, ns, bucket] = await Promise.all([testDatabase(), testNamespace('api'), testBucket()]);
  await applyStaticExportCrd(ns.kubeConfig);
  const env: Record<string, string> = {
    LOG_LEVEL: 'info',
    HTTP_HOST: '127.0.0.1', HTTP_PORT: '0', METRICS_PORT: '0',
    DATABASE_URL: databaseUrl, DATABASE_POOL_SIZE: '8',
    KUBECONFIG: ns.kubeconfigPath, EXPORT_NAMESPACE: ns.namespace,
    S3_ENDPOINT: bucket.endpoint, S3_REGION: bucket.region, S3_BUCKET: bucket.bucket,
    S3_ACCESS_KEY_ID: bucket.accessKeyId, S3_SECRET_ACCESS_KEY: bucket.secretAccessKey,
    ...options.env,
  };
  const logs: string[] = [];
  const logger = createLogger('info', {}, (line) => logs.push(line));
  const start = async (extra: { env?: Record<string, string>; clock?: () => Date }): Promise<RunningApi> => {
    const running = await startApiServer(parseConfig({ ...env, ...extra.env }), logger, extra.clock ? { clock: extra.clock } : {});
    cleanup(() => running.stop());
    return running;
  };
  const api = await start(options);
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 4 });
  pool.on('error', () => undefined);
  cleanup(() => pool.end());
  const identity = await PgIdentityStore.create({ pool });

  const apiKey = async (organizationId: string, type: KeyType): Promise<{ key: string; id: string }> => {
    const generated = generateApiKey(type);
    const record = await identity.createApiKey({ organizationId, type, name: `${type} test key`, hash: generated.hash, displayPrefix: generated.displayPrefix });
    return { key: generated.key, id: record.id };
  };

  return {
    api, databaseUrl, ns, bucket, pool, identity, logs, env,
    searchIndex: await PgSearchIndex.create({ pool }),
    events: await PgAssistantEvents.create({ pool }),
    exports: new KubernetesStaticExports(ns.kubeConfig),
    async call(method, path, o = {}) {
      const headers: Record<string, string> = { ...o.headers };
      if (o.key !== undefined) headers.authorization = `Bearer ${o.key}`;
      let body: string | Buffer | undefined = o.rawBody;
      if (o.body !== undefined) {
        body = JSON.stringify(o.body);
        headers['content-type'] ??= 'application/json';
      }
      const response = await fetch(`${o.base ?? api.url}${path}`, { method, headers, ...(body !== undefined ? { body } : {}) });
      const text = await response.text();
      let json: unknown;
      try {
        json = text === '' ? undefined : JSON.parse(text);
      } catch {
        json = undefined;
      }
      return { status: response.status, headers: response.headers, text, json };
    },
    async tenant(plan = 'enterprise', name = uniqueName('org')) {
      const org = await identity.createOrganization({ name, plan });
      const domain = `${name}.docs.example.com`;
      const project = await identity.createProject({ organizationId: org.id, domain, origin: `https://${domain}/` });
      return { org, project, adminKey: (await apiKey(org.id, 'admin')).key, assistantKey: (await apiKey(org.id, 'assistant')).key };
    },
    apiKey,
    replica: (extra = {}) => start(extra),
  };
}
