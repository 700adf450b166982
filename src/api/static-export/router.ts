import type { ExportJobs } from '../../exportjobs/export-jobs.js';
import { defineRoute, type AnyRoute } from '../route.js';
import { presentBundle, presentJob } from './presenter.js';
import { bundleResponse, createJobBody, jobParams, jobResponse } from './schema.js';

export function staticExportRoutes(jobs: ExportJobs): AnyRoute[] {
  return [
    defineRoute({
      operationId: 'createStaticExportJob',
      method: 'post',
      path: '/v1/static-export/jobs',
      tag: 'static-export',
      summary: 'Start a static export',
      description: 'Creates a StaticExport resource for one of the organization\'s project domains (the origin comes from the project registry). Enterprise plan only. Poll the job, then request its bundle.',
      keyType: 'admin',
      family: 'export',
      body: createJobBody,
      response: { status: 202, name: 'Job', schema: jobResponse, description: 'Accepted; the job is queued. Location names the job.' },
      errors: [400, 401, 403, 413, 415, 429, 500, 503],
      precheck: ({ principal, body }) => jobs.resolveProject(principal, body.domain),
      async handle({ body, principal, ctx, checked: project }) {
        const job = await jobs.create(principal, project, body);
        ctx.set('Location', `/v1/static-export/jobs/${job.jobId}`);
        return presentJob(job);
      },
    }),
    defineRoute({
      operationId: 'getStaticExportJob',
      method: 'get',
      path: '/v1/static-export/jobs/{jobId}',
      tag: 'static-export',
      summary: 'Read a static export job',
      description: 'Status, progress and page count as the controller reports them.',
      keyType: 'admin',
      family: 'export',
      params: jobParams,
      response: { status: 200, name: 'Job', schema: jobResponse, description: 'The job.' },
      errors: [400, 401, 403, 404, 429, 500, 503],
      handle: async ({ params, principal }) => presentJob(await jobs.get(principal, params.jobId)),
    }),
    defineRoute({
      operationId: 'createStaticExportBundleLink',
      method: 'post',
      path: '/v1/static-export/jobs/{jobId}/bundle',
      tag: 'static-export',
      summary: 'Get a download link to the job\'s archive',
      description: 'Presigns a fresh link to the completed job\'s single archive on every call (no request body). 409 until the job is completed.',
      keyType: 'admin',
      family: 'export',
      params: jobParams,
      response: { status: 200, name: 'BundleLink', schema: bundleResponse, description: 'A presigned link.' },
      errors: [400, 401, 403, 404, 409, 429, 500, 503],
      handle: async ({ params, principal }) => presentBundle(await jobs.bundleLink(principal, params.jobId)),
    }),
  ];
}
