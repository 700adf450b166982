import type { V1Job } from '@kubernetes/client-node';
import { API_VERSION, KIND } from '../../apis/staticexport/index.js';
import type { RenderRequest } from '../../apis/render/contract.js';
import { LABELS, MANAGED_BY, labelValue } from './names.js';

/** How render Jobs are shaped; from configuration, the same for every export. */
export interface RenderJobSettings {
  image: string;
  imagePullPolicy: 'Always' | 'IfNotPresent' | 'Never';
  serviceAccountName: string;
  /** Secret with S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY and optionally DATABASE_URL; never inlined in the Job. */
  secretName: string;
  /** Non-secret settings passed to the renderer as plain env (S3 endpoint, bucket, region, ...). */
  env: Record<string, string>;
  backoffLimit: number;
  activeDeadlineSeconds: number;
  ttlSecondsAfterFinished: number;
  resources: { requests: { cpu: string; memory: string }; limits: { cpu: string; memory: string } };
}

export interface RenderOwner {
  namespace: string;
  name: string;
  uid: string;
}

/**
 * The batch/v1 Job that runs `docport render` for one generation of an export:
 * controller-owned (garbage-collected with the export), restricted Pod Security
 * (non-root, no privilege escalation, all capabilities dropped, read-only root with a
 * scratch /tmp for Chromium), bounded by deadline, retries and TTL.
 */
export function renderJob(owner: RenderOwner, jobName: string, request: RenderRequest, settings: RenderJobSettings): V1Job {
  const labels = {
    [LABELS.managedBy]: MANAGED_BY,
    [LABELS.component]: 'renderer',
    [LABELS.exportName]: labelValue(owner.name),
    [LABELS.exportUid]: owner.uid,
    [LABELS.generation]: String(request.generation),
  };
  const env = [
    { name: 'RENDER_REQUEST', value: JSON.stringify(request) },
    ...Object.entries(settings.env).sort(([a], [b]) => a.localeCompare(b)).map(([name, value]) => ({ name, value })),
  ];
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: {
      name: jobName,
      namespace: owner.namespace,
      labels,
      ownerReferences: [{ apiVersion: API_VERSION, kind: KIND, name: owner.name, uid: owner.uid, controller: true, blockOwnerDeletion: true }],
    },
    spec: {
      backoffLimit: settings.backoffLimit,
      activeDeadlineSeconds: settings.activeDeadlineSeconds,
      ttlSecondsAfterFinished: settings.ttlSecondsAfterFinished,
      template: {
        metadata: { labels },
        spec: {
          restartPolicy: 'Never',
          serviceAccountName: settings.serviceAccountName,
          automountServiceAccountToken: true,
          securityContext: { runAsNonRoot: true, runAsUser: 65532, runAsGroup: 65532, fsGroup: 65532, seccompProfile: { type: 'RuntimeDefault' } },
          containers: [
            {
              name: 'render',
              image: settings.image,
              imagePullPolicy: settings.imagePullPolicy,
              args: ['render'],
              env,
              envFrom: [{ secretRef: { name: settings.secretName } }],
              resources: settings.resources,
              securityContext: { allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, runAsNonRoot: true, capabilities: { drop: ['ALL'] } },
              volumeMounts: [{ name: 'tmp', mountPath: '/tmp' }, { name: 'shm', mountPath: '/dev/shm' }],
            },
          ],
          volumes: [
            { name: 'tmp', emptyDir: { sizeLimit: '2Gi' } },
            { name: 'shm', emptyDir: { medium: 'Memory', sizeLimit: '512Mi' } },
          ],
        },
      },
    },
  };
}

/** What the renderer's ServiceAccount may do in the export's namespace: report progress, nothing else. */
export const RENDERER_ROLE_RULES = [
  { apiGroups: ['docport.dev'], resources: ['staticexports/status'], verbs: ['get', 'patch'] },
];
