import { z } from 'zod';
import { domainSchema, pathSchema, versionSchema } from '../../apis/staticexport/spec.js';
import { JOB_ID_PATTERN } from '../../exportjobs/job-id.js';
import { JOB_STATUSES } from '../../exportjobs/job-view.js';

export const createJobBody = z
  .strictObject({
    domain: domainSchema.describe('Domain of one of the organization\'s projects; the origin to render comes from the project.'),
    version: versionSchema.optional(),
    paths: z.array(pathSchema).min(1).max(100).optional().describe('Path prefixes to export; default the whole origin.'),
  })
  .describe('What to export.');

export const jobParams = z.object({
  jobId: z.string().regex(JOB_ID_PATTERN, 'must be a job id as returned by POST /v1/static-export/jobs (job- and 26 characters a-z, 2-7)')
    .describe('Job id returned when the job was created.'),
});

const timestamp = z.iso.datetime();

export const jobResponse = z
  .object({
    jobId: z.string().describe('Job id (the name of the StaticExport resource).'),
    status: z.enum(JOB_STATUSES).describe('queued: accepted, not started; running; completed: the bundle can be requested; failed: see error.'),
    progress: z.number().int().min(0).max(100).describe('Render progress in percent.'),
    pageCount: z.number().int().min(0).describe('Pages rendered so far.'),
    createdAt: timestamp.describe('When the job was created (UTC).'),
    updatedAt: timestamp.describe('Last change of the job\'s state (UTC).'),
    error: z.string().optional().describe('Why the job failed; only when status is failed.'),
  })
  .describe('A static export job.');

export const bundleResponse = z
  .object({
    jobId: z.string(),
    bundleUrl: z.url().describe('Presigned GET link to the job\'s archive; needs no credentials. Treat it as a secret until it expires.'),
    expiresAt: timestamp.describe('When the link stops working; call the endpoint again for a fresh link to the same archive.'),
    sizeBytes: z.number().int().min(0).describe('Archive size in bytes.'),
  })
  .describe('A download link to the job\'s single archive.');
