import { KubeConfig } from '@kubernetes/client-node';

/** KUBECONFIG when given, else the in-cluster service account, else ~/.kube/config. */
export function loadKubeConfig(kubeconfigPath: string | undefined): KubeConfig {
  const kc = new KubeConfig();
  if (kubeconfigPath) kc.loadFromFile(kubeconfigPath);
  else kc.loadFromDefault();
  return kc;
}
