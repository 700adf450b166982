import type { StaticExport } from '../apis/staticexport/index.js';

export const JOB_STATUSES = ['queued', 'running', 'completed', 'failed'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

/** An export job as the REST API shows it, read from the StaticExport the controller reports on. */
export interface JobView {
  jobId: string;
  status: JobStatus;
  progress: number;
  pageCount: number;
  createdAt: Date;
  updatedAt: Date;
  error?: string;
}

const STATUS_BY_PHASE = { Queued: 'queued', Running: 'running', Completed: 'completed', Failed: 'failed' } as const;

const toDate = (value: string | Date | undefined): Date | undefined => {
  if (value === undefined) return undefined;
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date;
};

/** No status yet means the controller has not picked the export up: queued. */
export function jobView(resource: StaticExport): JobView {
  const status = resource.status;
  const createdAt = toDate(resource.metadata.creationTimestamp) ?? new Date(0);
  const transitions = [
    createdAt,
    ...(status?.conditions ?? []).map((c) => toDate(c.lastTransitionTime)),
    toDate(status?.startTime),
    toDate(status?.completionTime),
  ].filter((d): d is Date => d !== undefined);
  const jobStatus: JobStatus = status?.phase ? STATUS_BY_PHASE[status.phase] : 'queued';
  return {
    jobId: resource.metadata.name,
    status: jobStatus,
    progress: status?.progress ?? 0,
    pageCount: status?.pageCount ?? 0,
    createdAt,
    updatedAt: new Date(Math.max(...transitions.map((d) => d.getTime()))),
    ...(jobStatus === 'failed' ? { error: status?.failureMessage ?? 'the export failed without a message' } : {}),
  };
}
