import { CoordinationV1Api, type KubeConfig, type V1Lease } from '@kubernetes/client-node';
import type { LeaseLock, LeaseRecord } from '../../ports/lease-lock.js';
import { apiStatus, toDomainError } from './api-errors.js';

/** MicroTime wants exactly six fractional digits; Date#toISOString gives three. */
function microTime(date: Date): string {
  return date.toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}

function toRecord(lease: V1Lease): LeaseRecord {
  const spec = lease.spec ?? {};
  return {
    holderIdentity: spec.holderIdentity ?? '',
    leaseDurationSeconds: spec.leaseDurationSeconds ?? 0,
    acquireTime: new Date(spec.acquireTime ?? 0),
    renewTime: new Date(spec.renewTime ?? 0),
    leaseTransitions: spec.leaseTransitions ?? 0,
    ...(lease.metadata?.resourceVersion ? { version: lease.metadata.resourceVersion } : {}),
  };
}

export class KubernetesLeaseLock implements LeaseLock {
  private readonly api: CoordinationV1Api;
  readonly description: string;
  constructor(kubeConfig: KubeConfig, private readonly namespace: string, private readonly name: string) {
    this.api = kubeConfig.makeApiClient(CoordinationV1Api);
    this.description = `lease ${namespace}/${name}`;
  }

  private body(record: LeaseRecord): V1Lease {
    // Plain strings pass through the client's serializer untouched (it only rewrites Date objects).
    return {
      apiVersion: 'coordination.k8s.io/v1', kind: 'Lease',
      metadata: { name: this.name, namespace: this.namespace, ...(record.version ? { resourceVersion: record.version } : {}) },
      spec: {
        holderIdentity: record.holderIdentity,
        leaseDurationSeconds: record.leaseDurationSeconds,
        acquireTime: microTime(record.acquireTime) as unknown as Date,
        renewTime: microTime(record.renewTime) as unknown as Date,
        leaseTransitions: record.leaseTransitions,
      },
    };
  }

  async get(): Promise<LeaseRecord | undefined> {
    try {
      return toRecord(await this.api.readNamespacedLease({ name: this.name, namespace: this.namespace }));
    } catch (error) {
      if (apiStatus(error) === 404) return undefined;
      throw toDomainError(error, `read ${this.description}`);
    }
  }

  async create(record: LeaseRecord): Promise<LeaseRecord> {
    try {
      return toRecord(await this.api.createNamespacedLease({ namespace: this.namespace, body: this.body(record) }));
    } catch (error) {
      throw toDomainError(error, `create ${this.description}`);
    }
  }

  async update(record: LeaseRecord): Promise<LeaseRecord> {
    try {
      return toRecord(await this.api.replaceNamespacedLease({ name: this.name, namespace: this.namespace, body: this.body(record) }));
    } catch (error) {
      throw toDomainError(error, `update ${this.description}`);
    }
  }
}
