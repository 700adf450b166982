import { randomBytes } from 'node:crypto';
import { CoreV1Api, type KubeConfig } from '@kubernetes/client-node';
import type { EventRecorder } from '../../ports/values-publisher.js';
import type { Logger } from '../../observability/logger.js';
import { redactString } from '../../observability/logger.js';

/** core/v1 Events, as `kubectl describe` shows them. Best effort: a failed event never fails a reconcile. */
export class KubernetesEventRecorder implements EventRecorder {
  private readonly core: CoreV1Api;
  constructor(kubeConfig: KubeConfig, private readonly component: string, private readonly log: Logger) {
    this.core = kubeConfig.makeApiClient(CoreV1Api);
  }

  async record(object: Parameters<EventRecorder['record']>[0], event: Parameters<EventRecorder['record']>[1]): Promise<void> {
    const now = new Date();
    try {
      await this.core.createNamespacedEvent({
        namespace: object.namespace,
        body: {
          metadata: { name: `${object.name}.${randomBytes(8).toString('hex')}`, namespace: object.namespace },
          involvedObject: { kind: object.kind, apiVersion: object.apiVersion, name: object.name, namespace: object.namespace, uid: object.uid },
          type: event.type,
          reason: event.reason,
          message: redactString(event.message).slice(0, 1024),
          source: { component: this.component },
          firstTimestamp: now,
          lastTimestamp: now,
          count: 1,
        },
      });
    } catch (error) {
      this.log.warn('event not recorded', { reason: event.reason, object: `${object.namespace}/${object.name}`, error });
    }
  }
}
