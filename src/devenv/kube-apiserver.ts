import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import path from 'node:path';
import { request } from 'node:https';
import { freePort } from './ports.js';
import { MissingComponentError, startService, waitUntilReady, type ServiceProcess } from './service-process.js';

export interface LocalControlPlane {
  readonly server: string;
  /** Path of a kubeconfig whose current context is cluster-admin (system:masters). */
  readonly kubeconfig: string;
  readonly adminToken: string;
  /** Restarts only kube-apiserver (etcd keeps the data), for recovery tests. */
  restartApiServer(): Promise<void>;
  stop(): Promise<void>;
}

export function kubeApiServerBinary(cacheDir = path.join(homedir(), '.cache', 'docport')): string {
  const binary = path.join(cacheDir, 'kube-apiserver', 'current', 'kube-apiserver');
  if (!existsSync(binary)) {
    throw new MissingComponentError('kube-apiserver', `no binary at ${binary}; run \`make deps\` (builds it from Debian's kubernetes source package, about 6-10 minutes once)`);
  }
  return binary;
}

function etcdBinary(): string {
  for (const candidate of ['/usr/bin/etcd', '/usr/local/bin/etcd']) if (existsSync(candidate)) return candidate;
  throw new MissingComponentError('etcd', 'run `make deps` (installs Debian\'s etcd-server)');
}

async function httpOk(url: string): Promise<boolean> {
  const response = await fetch(url, { signal: AbortSignal.timeout(2000) });
  return response.ok;
}

function httpsGet(url: string, token: string, ca: Buffer): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { Authorization: `Bearer ${token}` }, ca, timeout: 2000 }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.end();
  });
}

/**
 * Starts etcd and a real kube-apiserver on loopback: token auth, RBAC, the
 * generated serving certificate as CA. Nothing runs Pods (no scheduler or kubelet).
 */
export async function startControlPlane(dir: string): Promise<LocalControlPlane> {
  const apiserverBinary = kubeApiServerBinary();
  const etcd = etcdBinary();
  await mkdir(path.join(dir, 'certs'), { recursive: true });
  const [etcdPort, peerPort, apiPort] = [await freePort(), await freePort(), await freePort()];

  const etcdService = startService('etcd', etcd, [
    '--data-dir', path.join(dir, 'etcd'),
    '--listen-client-urls', `http://127.0.0.1:${etcdPort}`,
    '--advertise-client-urls', `http://127.0.0.1:${etcdPort}`,
    '--listen-peer-urls', `http://127.0.0.1:${peerPort}`,
    '--initial-advertise-peer-urls', `http://127.0.0.1:${peerPort}`,
    '--initial-cluster', `default=http://127.0.0.1:${peerPort}`,
    '--unsafe-no-fsync',
  ], path.join(dir, 'etcd.log'));
  await waitUntilReady(etcdService, () => httpOk(`http://127.0.0.1:${etcdPort}/health`), 30_000);

  const { publicKey, privateKey } = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs1', format: 'pem' },
  });
  await writeFile(path.join(dir, 'sa.pub'), publicKey);
  await writeFile(path.join(dir, 'sa.key'), privateKey, { mode: 0o600 });
  const adminToken = randomBytes(24).toString('hex');
  await writeFile(path.join(dir, 'tokens.csv'), `${adminToken},admin,admin,system:masters\n`, { mode: 0o600 });

  const apiArgs = [
    `--etcd-servers=http://127.0.0.1:${etcdPort}`,
    '--bind-address=127.0.0.1', '--advertise-address=127.0.0.1', `--secure-port=${apiPort}`,
    `--cert-dir=${path.join(dir, 'certs')}`,
    `--token-auth-file=${path.join(dir, 'tokens.csv')}`,
    '--authorization-mode=RBAC',
    '--service-account-issuer=https://kubernetes.default.svc',
    `--service-account-key-file=${path.join(dir, 'sa.pub')}`,
    `--service-account-signing-key-file=${path.join(dir, 'sa.key')}`,
    '--service-cluster-ip-range=10.0.0.0/24',
    '--disable-admission-plugins=ServiceAccount',
    '--enable-priority-and-fairness=false',
    // GA since 1.23; alpha (off) in this 1.20 build, which would prune Jobs' ttlSecondsAfterFinished.
    '--feature-gates=TTLAfterFinished=true',
  ];
  const server = `https://127.0.0.1:${apiPort}`;
  let api: ServiceProcess;
  const startApi = async (): Promise<void> => {
    api = startService('kube-apiserver', apiserverBinary, apiArgs, path.join(dir, 'kube-apiserver.log'));
    const caFile = path.join(dir, 'certs', 'apiserver.crt');
    await waitUntilReady(api, async () => {
      if (!existsSync(caFile)) return false;
      const { status } = await httpsGet(`${server}/readyz`, adminToken, await readFile(caFile));
      return status === 200;
    }, 90_000);
  };
  try {
    await startApi();
  } catch (error) {
    await etcdService.stop('SIGTERM');
    throw error;
  }

  const ca = (await readFile(path.join(dir, 'certs', 'apiserver.crt'))).toString('base64');
  const kubeconfig = path.join(dir, 'kubeconfig');
  await writeFile(kubeconfig, [
    'apiVersion: v1', 'kind: Config',
    'clusters:', '- name: docport-local', '  cluster:', `    server: ${server}`, `    certificate-authority-data: ${ca}`,
    'users:', '- name: admin', '  user:', `    token: ${adminToken}`,
    'contexts:', '- name: docport-local', '  context:', '    cluster: docport-local', '    user: admin',
    'current-context: docport-local', '',
  ].join('\n'), { mode: 0o600 });

  return {
    server,
    kubeconfig,
    adminToken,
    async restartApiServer() {
      await api.stop('SIGTERM');
      await startApi();
    },
    async stop() {
      await api.stop('SIGTERM');
      await etcdService.stop('SIGTERM');
    },
  };
}
