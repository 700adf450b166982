// `make run`: the whole stack on one machine, on embedded defaults. Starts (or uses, when
// KUBECONFIG, DATABASE_URL or S3_* are given) the control plane, PostgreSQL and the S3
// server; then the REST API, the controller with the local executor, and a demo docs site
// with a demo organization, project and keys. Ctrl-C stops everything.
import { chmod, copyFile, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { CreateBucketCommand } from '@aws-sdk/client-s3';
import { KubeConfig } from '@kubernetes/client-node';
import { withDatabase } from '../admin/cli-support.js';
import { createS3Client } from '../adapters/s3/s3-object-store.js';
import { startApiServer } from '../api/server.js';
import { parseConfig } from '../config/config.js';
import { runController } from '../controller/run-controller.js';
import { generateApiKey } from '../identity/api-keys.js';
import { createLogger } from '../observability/logger.js';
import { applyCrd, ensureNamespace } from './apply-crd.js';
import { startDemoSite } from './demo-site.js';
import { freePort } from './ports.js';
import { startStack } from './stack.js';

const env = process.env;
const say = (line: string): void => console.log(`[run] ${line}`);

async function seedDemo(componentEnv: Record<string, string>, origin: string): Promise<{ adminKey: string; assistantKey: string; projectId: string; domain: string }> {
  const domain = 'docs.demo.local';
  return withDatabase(componentEnv, async ({ identity }) => {
    let project = await identity.findProjectByDomain(domain);
    const organizationId = project?.organizationId ?? (await identity.createOrganization({ name: 'Demo Org', plan: 'enterprise' })).id;
    project ??= await identity.createProject({ organizationId, domain, origin });
    // Keys are printed once and stored as hashes: every run makes fresh ones.
    const admin = generateApiKey('admin');
    const assistant = generateApiKey('assistant');
    await identity.createApiKey({ organizationId, type: 'admin', name: 'make run', hash: admin.hash, displayPrefix: admin.displayPrefix });
    await identity.createApiKey({ organizationId, type: 'assistant', name: 'make run', hash: assistant.hash, displayPrefix: assistant.displayPrefix });
    return { adminKey: admin.key, assistantKey: assistant.key, projectId: project.id, domain };
  });
}

async function main(): Promise<void> {
  const stops: Array<() => Promise<unknown>> = [];
  let stopping = false;
  const stopAll = async (signal: string): Promise<void> => {
    if (stopping) return;
    stopping = true;
    say(`${signal}: stopping`);
    for (const stop of stops.reverse()) await stop().catch((error: unknown) => console.error(`[run] stop failed: ${String(error)}`));
    say('stopped');
    process.exit(0);
  };
  process.on('SIGINT', () => void stopAll('SIGINT'));
  process.on('SIGTERM', () => void stopAll('SIGTERM'));

  const s3Given = env.S3_ENDPOINT && env.S3_ACCESS_KEY_ID && env.S3_SECRET_ACCESS_KEY;
  const stack = await startStack({
    ...(env.DATABASE_URL ? { databaseUrl: env.DATABASE_URL } : {}),
    ...(env.KUBECONFIG ? { kubeconfig: env.KUBECONFIG } : {}),
    ...(s3Given ? { s3: { endpoint: env.S3_ENDPOINT!, region: env.S3_REGION ?? 'us-east-1', accessKeyId: env.S3_ACCESS_KEY_ID!, secretAccessKey: env.S3_SECRET_ACCESS_KEY! } } : {}),
    log: (line) => say(line),
  });
  stops.push(() => stack.stop());

  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromFile(stack.env.DOCPORT_KUBECONFIG);
  const namespace = env.EXPORT_NAMESPACE ?? 'docport';
  await applyCrd(kubeConfig);
  await ensureNamespace(kubeConfig, namespace);
  const bucket = env.S3_BUCKET ?? 'docport-exports';
  await createS3Client({ endpoint: stack.env.DOCPORT_S3_ENDPOINT, region: stack.env.DOCPORT_S3_REGION, bucket, forcePathStyle: true, accessKeyId: stack.env.DOCPORT_S3_ACCESS_KEY_ID, secretAccessKey: stack.env.DOCPORT_S3_SECRET_ACCESS_KEY })
    .send(new CreateBucketCommand({ Bucket: bucket }))
    .catch((error: { name?: string }) => { if (error.name !== 'BucketAlreadyOwnedByYou' && error.name !== 'BucketAlreadyExists') throw error; });

  const host = '127.0.0.1';
  const demo = await startDemoSite(host, Number(env.DOCPORT_DEMO_PORT ?? 8088));
  stops.push(() => demo.stop());
  say(`demo documentation site: ${demo.origin}/`);

  const apiPort = Number(env.DOCPORT_API_PORT ?? 8080);
  const componentEnv: Record<string, string> = {
    PATH: env.PATH ?? '', HOME: env.HOME ?? '', LOG_LEVEL: env.LOG_LEVEL ?? 'info',
    KUBECONFIG: stack.env.DOCPORT_KUBECONFIG, DATABASE_URL: stack.env.DOCPORT_DATABASE_URL,
    S3_ENDPOINT: stack.env.DOCPORT_S3_ENDPOINT, S3_REGION: stack.env.DOCPORT_S3_REGION, S3_BUCKET: bucket, S3_FORCE_PATH_STYLE: 'true',
    S3_ACCESS_KEY_ID: stack.env.DOCPORT_S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY: stack.env.DOCPORT_S3_SECRET_ACCESS_KEY,
    EXPORT_NAMESPACE: namespace, HTTP_HOST: host, CHROMIUM_PATH: stack.env.DOCPORT_CHROMIUM_PATH,
    RENDER_EXECUTOR: 'local', LEADER_ELECT: 'false', WATCH_NAMESPACE: namespace,
    // The demo site is on loopback, which the renderer refuses unless told otherwise.
    RENDER_ALLOW_PRIVATE_NETWORKS: 'true',
  };
  const log = createLogger(componentEnv.LOG_LEVEL as 'info');
  const api = await startApiServer(parseConfig({ ...componentEnv, HTTP_PORT: String(apiPort), METRICS_PORT: String(await freePort()) }), log.child({ component: 'api' }));
  stops.push(() => api.stop(0));
  const controllerEnv = { ...componentEnv, HTTP_PORT: String(await freePort()), METRICS_PORT: String(await freePort()) };
  const controller = await runController(parseConfig(controllerEnv), controllerEnv, log.child({ component: 'controller' }));
  stops.push(() => controller.stop());

  const dataDir = path.join('.data', 'dev');
  await mkdir(dataDir, { recursive: true });
  // A copy of the private cluster's kubeconfig for scripts; a given KUBECONFIG is referenced, not copied.
  let kubeconfig = path.resolve(stack.env.DOCPORT_KUBECONFIG);
  if (stack.controlPlane) {
    kubeconfig = path.resolve(dataDir, 'kubeconfig');
    await copyFile(stack.env.DOCPORT_KUBECONFIG, kubeconfig);
    await chmod(kubeconfig, 0o600);
  }
  const credentials = {
    baseUrl: api.url, ...(await seedDemo(componentEnv, demo.origin)),
    origin: `${demo.origin}/`, namespace, databaseUrl: stack.env.DOCPORT_DATABASE_URL, kubeconfig,
  };
  const file = path.join(dataDir, 'credentials.json');
  await writeFile(file, `${JSON.stringify(credentials, null, 2)}\n`, { mode: 0o600 });
  say('');
  say(`Docport is running: ${api.url}`);
  say(`  admin key:     ${credentials.adminKey}`);
  say(`  assistant key: ${credentials.assistantKey}`);
  say(`  project:       ${credentials.projectId} (domain ${credentials.domain}, origin ${demo.origin}/)`);
  say(`  credentials:   ${file}`);
  say(`  kubectl:       export KUBECONFIG=${kubeconfig}`);
  say('Ctrl-C stops everything.');
}

main().catch((error: unknown) => {
  console.error(`[run] ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
