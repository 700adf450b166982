import { CoreV1Api, KubeConfig } from '@kubernetes/client-node';
import { cleanup, requireEnv, uniqueName } from './environment.js';

export interface TestNamespace {
  readonly kubeConfig: KubeConfig;
  readonly kubeconfigPath: string;
  readonly namespace: string;
}

/** A fresh namespace on the real kube-apiserver, deleted after the suite. */
export async function testNamespace(prefix = 't'): Promise<TestNamespace> {
  const kubeconfigPath = requireEnv('DOCPORT_KUBECONFIG', 'kube-apiserver');
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromFile(kubeconfigPath);
  const core = kubeConfig.makeApiClient(CoreV1Api);
  const namespace = uniqueName(prefix);
  await core.createNamespace({ body: { metadata: { name: namespace } } });
  // No namespace controller runs here, so the namespace stays Terminating; its objects die with etcd.
  cleanup(() => core.deleteNamespace({ name: namespace }).catch(() => undefined));
  return { kubeConfig, kubeconfigPath, namespace };
}
