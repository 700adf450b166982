/** A leader-election record (coordination.k8s.io/v1 Lease is the adapter). */
export interface LeaseRecord {
  holderIdentity: string;
  leaseDurationSeconds: number;
  acquireTime: Date;
  renewTime: Date;
  leaseTransitions: number;
  /** Opaque version for optimistic concurrency; set by the store. */
  version?: string;
}

export interface LeaseLock {
  readonly description: string;
  get(): Promise<LeaseRecord | undefined>;
  /** ConflictError when it already exists. */
  create(record: LeaseRecord): Promise<LeaseRecord>;
  /** ConflictError when record.version is stale. */
  update(record: LeaseRecord): Promise<LeaseRecord>;
}
