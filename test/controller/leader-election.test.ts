// Two real `docport controller` processes share one Lease: only the holder reconciles;
// when it is killed the other takes over within the lease time; SIGTERM releases the Lease.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { BatchV1Api, CoordinationV1Api } from '@kubernetes/client-node';
import { KubernetesStaticExports } from '../../src/adapters/kubernetes/static-export-client.js';
import { applyStaticExportCrd } from '../support/crd.js';
import { testNamespace, type TestNamespace } from '../support/kubernetes.js';
import { testBucket, type TestBucket } from '../support/s3.js';
import { eventually } from './support/controller-env.js';

const CLI = fileURLToPath(new URL('../../src/cli/main.js', import.meta.url));

interface ControllerProcess { id: string; child: ChildProcess; metricsPort: Promise<number>; exited: Promise<number | null> }

function startController(id: string, ns: TestNamespace, s3: TestBucket): ControllerProcess {
  const child = spawn(process.execPath, [CLI, 'controller'], {
    env: {
      PATH: process.env.PATH, NODE_NO_WARNINGS: '1', KUBECONFIG: ns.kubeconfigPath, WATCH_NAMESPACE: ns.namespace,
      LEADER_ELECTION_NAMESPACE: ns.namespace, CONTROLLER_ID: id, METRICS_PORT: '0', HTTP_HOST: '127.0.0.1', LOG_LEVEL: 'info',
      S3_ENDPOINT: s3.endpoint, S3_REGION: s3.region, S3_BUCKET: s3.bucket, S3_ACCESS_KEY_ID: s3.accessKeyId, S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const metricsPort = new Promise<number>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /"msg":"controller started".*"metricsPort":(\d+)/.exec(output);
      if (match) resolve(Number(match[1]));
    });
    child.once('exit', () => reject(new Error(`controller ${id} exited early:\n${output}`)));
  });
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { id, child, metricsPort, exited };
}

async function reconciles(port: number): Promise<number> {
  const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
  return [...text.matchAll(/^controller_runtime_reconcile_total\{[^}]*\} (\d+)/gm)].reduce((sum, m) => sum + Number(m[1]), 0);
}

describe('leader election between two controller processes', () => {
  let ns: TestNamespace;
  let s3: TestBucket;
  const processes: ControllerProcess[] = [];
  before(async () => {
    ns = await testNamespace('ctl-leader');
    await applyStaticExportCrd(ns.kubeConfig);
    s3 = await testBucket();
  });
  after(() => {
    for (const p of processes) p.child.kill('SIGKILL');
  });

  it('lets only the Lease holder reconcile, fails over when it dies, and releases on SIGTERM', async () => {
    const leases = ns.kubeConfig.makeApiClient(CoordinationV1Api);
    const holder = async () => (await leases.readNamespacedLease({ name: 'docport-controller', namespace: ns.namespace }).catch(() => undefined))?.spec?.holderIdentity;
    processes.push(startController('a', ns, s3), startController('b', ns, s3));
    const [portA, portB] = await Promise.all(processes.map((p) => p.metricsPort));
    const leaderId = await eventually('a leader', async () => { const h = await holder(); return h === 'a' || h === 'b' ? h : undefined; }, 20_000);
    const leader = processes.find((p) => p.id === leaderId)!;
    const follower = processes.find((p) => p.id !== leaderId)!;
    const [leaderPort, followerPort] = (leaderId === 'a' ? [portA, portB] : [portB, portA]) as [number, number];

    const exports = new KubernetesStaticExports(ns.kubeConfig);
    const batch = ns.kubeConfig.makeApiClient(BatchV1Api);
    const jobs = async (uid: string) => (await batch.listNamespacedJob({ namespace: ns.namespace, labelSelector: `docport.dev/staticexport-uid=${uid}` })).items.length;
    const one = await exports.create({ namespace: ns.namespace, name: 'one', labels: {}, spec: { domain: 'one.example.com', origin: 'https://one.example.com/' } });
    await eventually('Job from the leader', async () => (await jobs(one.metadata.uid!)) === 1);
    assert.ok((await reconciles(leaderPort)) > 0);
    for (const port of [leaderPort, followerPort]) {
      assert.equal((await fetch(`http://127.0.0.1:${port}/healthz`)).status, 200);
      assert.equal((await fetch(`http://127.0.0.1:${port}/readyz`)).status, 200, 'followers are ready too (caches synced)');
    }
    const metrics = await (await fetch(`http://127.0.0.1:${leaderPort}/metrics`)).text();
    for (const name of ['controller_runtime_reconcile_total', 'controller_runtime_reconcile_errors_total', 'controller_runtime_reconcile_time_seconds_bucket',
      'controller_runtime_max_concurrent_reconciles', 'controller_runtime_active_workers', 'workqueue_depth', 'workqueue_adds_total',
      'workqueue_queue_duration_seconds_bucket', 'workqueue_work_duration_seconds_bucket', 'workqueue_retries_total']) {
      assert.ok(new RegExp(`^${name}\\{`, 'm').test(metrics), `metric ${name} is exposed`);
    }
    assert.ok(/^leader_election_master_status\{name="staticexport"\} 1$/m.test(metrics), 'leader gauge is 1 on the leader');
    assert.equal(await reconciles(followerPort), 0, 'the follower does not reconcile');

    const killedAt = Date.now();
    leader.child.kill('SIGKILL');
    await eventually('takeover', async () => (await holder()) === follower.id, 25_000);
    const takeoverSeconds = (Date.now() - killedAt) / 1000;
    assert.ok(takeoverSeconds <= 15 + 2 * 1.2 + 3, `took over after ${takeoverSeconds.toFixed(1)} s; the lease is 15 s`);
    const two = await exports.create({ namespace: ns.namespace, name: 'two', labels: {}, spec: { domain: 'two.example.com', origin: 'https://two.example.com/' } });
    await eventually('Job from the new leader', async () => (await jobs(two.metadata.uid!)) === 1);
    assert.equal(await jobs(one.metadata.uid!), 1, 'no duplicate render after failover');

    follower.child.kill('SIGTERM');
    assert.equal(await follower.exited, 0);
    assert.equal(await holder(), '', 'the Lease was released');
  });
});
