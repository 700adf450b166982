import type { BundleLink } from '../../exportjobs/export-jobs.js';
import type { JobView } from '../../exportjobs/job-view.js';
import type { bundleResponse, jobResponse } from './schema.js';
import type { z } from 'zod';

export function presentJob(job: JobView): z.input<typeof jobResponse> {
  return {
    jobId: job.jobId,
    status: job.status,
    progress: job.progress,
    pageCount: job.pageCount,
    createdAt: job.createdAt.toISOString(),
    updatedAt: job.updatedAt.toISOString(),
    ...(job.error !== undefined ? { error: job.error } : {}),
  };
}

export function presentBundle(link: BundleLink): z.input<typeof bundleResponse> {
  return { jobId: link.jobId, bundleUrl: link.bundleUrl, expiresAt: link.expiresAt.toISOString(), sizeBytes: link.sizeBytes };
}
