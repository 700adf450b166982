import type { StaticExport } from '../apis/staticexport/index.js';
import { ConflictError, InputError, NotAllowedError, NotFoundError, UnavailableError } from '../domain/errors.js';
import type { IdentityStore } from '../identity/identity-store.js';
import type { Principal, Project } from '../identity/model.js';
import type { ObjectStore } from '../ports/object-store.js';
import type { StaticExports } from '../ports/static-exports.js';
import { JOB_ID_PATTERN, newJobId } from './job-id.js';
import { jobView, type JobView } from './job-view.js';

export const ORGANIZATION_LABEL = 'docport.dev/organization';
export const PROJECT_LABEL = 'docport.dev/project';
export const CREATED_BY_LABEL = 'app.kubernetes.io/created-by';
export const API_KEY_ANNOTATION = 'docport.dev/api-key-id';

export interface BundleLink {
  jobId: string;
  bundleUrl: string;
  expiresAt: Date;
  sizeBytes: number;
}

export interface ExportJobsDeps {
  exports: StaticExports;
  objects: ObjectStore;
  identity: Pick<IdentityStore, 'findProjectByDomain'>;
  /** Namespace of the StaticExports the API creates (config EXPORT_NAMESPACE). */
  namespace: string;
  presignTtlSeconds: number;
  clock: () => Date;
}

/** Static export is an enterprise feature. */
export function assertExportAllowed(principal: Principal): void {
  if (principal.organization.plan !== 'enterprise') {
    throw new NotAllowedError(`static export needs the enterprise plan; organization "${principal.organization.name}" is on the ${principal.organization.plan} plan`);
  }
}

/**
 * Export jobs are StaticExports: creating a job creates the resource, reading one reads it. The
 * controller owns the status; this service never writes it.
 */
export class ExportJobs {
  constructor(private readonly deps: ExportJobsDeps) {}

  /** The project an export of `domain` is for: the plan allows exports and the domain is the organization's. */
  async resolveProject(principal: Principal, domain: string): Promise<Project> {
    assertExportAllowed(principal);
    const project = await this.deps.identity.findProjectByDomain(domain);
    if (!project || project.organizationId !== principal.organization.id) {
      throw new InputError('unknown domain', [{ path: 'domain', message: `domain: "${domain}" is not a project of this organization` }]);
    }
    return project;
  }

  /** Creates the StaticExport of a job for a project resolved by resolveProject(). */
  async create(principal: Principal, project: Project, input: { version?: string | undefined; paths?: string[] | undefined }): Promise<JobView> {
    const resource = await this.deps.exports.create({
      namespace: this.deps.namespace,
      name: newJobId(),
      labels: { [ORGANIZATION_LABEL]: principal.organization.id, [PROJECT_LABEL]: project.id, [CREATED_BY_LABEL]: 'docport-api' },
      annotations: { [API_KEY_ANNOTATION]: principal.keyId },
      spec: {
        domain: project.domain,
        origin: project.origin,
        ...(input.version !== undefined ? { version: input.version } : {}),
        ...(input.paths !== undefined ? { paths: input.paths } : {}),
      },
    }).catch((error: unknown) => { throw clusterFailure(error); });
    return jobView(resource);
  }

  async get(principal: Principal, jobId: string): Promise<JobView> {
    return jobView(await this.find(principal, jobId));
  }

  /**
   * Presigns the archive afresh on every call, so a caller whose link expired gets a new one
   * for the same files. 409 until the controller reports the bundle.
   */
  async bundleLink(principal: Principal, jobId: string): Promise<BundleLink> {
    const resource = await this.find(principal, jobId);
    const phase = resource.status?.phase ?? 'Queued';
    const bundle = resource.status?.bundle;
    if (phase !== 'Completed' || !bundle) {
      throw new ConflictError(`job ${jobId} has no bundle yet: it is ${jobView(resource).status}; request the bundle once the job is completed`);
    }
    if (!(await this.deps.objects.head(bundle.key))) {
      throw new ConflictError(`the archive of job ${jobId} is no longer in storage; start a new export`);
    }
    const { url, expiresAt } = await this.deps.objects.presignGet(bundle.key, this.deps.presignTtlSeconds, this.deps.clock());
    return { jobId, bundleUrl: url, expiresAt, sizeBytes: bundle.sizeBytes };
  }

  /** Another organization's job, or a StaticExport not created through the API, is simply not found. */
  private async find(principal: Principal, jobId: string): Promise<StaticExport> {
    const notFound = new NotFoundError(`export job ${jobId} not found`);
    if (!JOB_ID_PATTERN.test(jobId)) throw notFound;
    const resource = await this.deps.exports.get(this.deps.namespace, jobId).catch((error: unknown) => { throw clusterFailure(error); });
    if (!resource || resource.metadata.labels?.[ORGANIZATION_LABEL] !== principal.organization.id) throw notFound;
    return resource;
  }
}

/**
 * The API's own validation mirrors the CRD schema, so a rejection by the API server, or a
 * permission error of the API's service account, is a server fault (500), not the caller's.
 */
function clusterFailure(error: unknown): Error {
  if (error instanceof UnavailableError) return error;
  return new Error(`Kubernetes API call failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
}
