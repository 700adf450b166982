import { z } from 'zod';
import { parseOptions, printRows, required, runCommand, withDatabase } from '../../admin/cli-support.js';
import { domainSchema } from '../../apis/staticexport/spec.js';
import { InputError } from '../../domain/errors.js';
import type { Project } from '../../identity/model.js';
import type { Command } from '../command.js';
import { redactString } from '../../observability/logger.js';

const USAGE = `docport projects create --org <organization-id> --domain <docs.example.com> --origin <https://docs.example.com/>
       docport projects list [--org <organization-id>] [--json]`;

// Origins end up in StaticExports, render requests and manifests: no credentials, no fragment.
const originSchema = z.url({ protocol: /^https?$/, error: 'must be an absolute http(s) URL' }).max(2048)
  .refine((url) => { const u = new URL(url); return u.username === '' && u.password === ''; }, 'must not contain credentials (user:password@)')
  .refine((url) => new URL(url).hash === '', 'must not contain a fragment');

const row = (p: Project): Record<string, string> => ({ id: p.id, organization: p.organizationId, domain: p.domain, origin: p.origin, created: p.createdAt.toISOString() });

function check<T>(schema: z.ZodType<T>, value: string, option: string): T {
  const parsed = schema.safeParse(value);
  // The value is echoed to help, with any URL password masked.
  if (!parsed.success) throw new InputError(`${option} ${parsed.error.issues[0]?.message ?? 'is invalid'} (got "${redactString(value)}")`);
  return parsed.data;
}

export const projectsCommand: Command = {
  name: 'projects',
  summary: 'register documentation projects (domain and origin) of an organization',
  run(args, env) {
    const [sub, ...rest] = args;
    return runCommand('projects', async () => {
      switch (sub) {
        case 'create': {
          const { values } = parseOptions(rest, { org: { type: 'string' }, domain: { type: 'string' }, origin: { type: 'string' } }, USAGE);
          const organizationId = required(values.org, '--org', USAGE);
          const domain = check(domainSchema, required(values.domain, '--domain', USAGE), '--domain');
          const origin = check(originSchema, required(values.origin, '--origin', USAGE), '--origin');
          const project = await withDatabase(env, async (db) => {
            if (!(await db.identity.getOrganization(organizationId))) throw new InputError(`organization ${organizationId} not found (docport orgs list)`);
            return db.identity.createProject({ organizationId, domain, origin });
          });
          process.stderr.write(`created project ${project.domain} -> ${project.origin}\n`);
          process.stdout.write(`${project.id}\n`);
          return;
        }
        case 'list': {
          const { values } = parseOptions(rest, { org: { type: 'string' }, json: { type: 'boolean', default: false } }, USAGE);
          printRows((await withDatabase(env, (db) => db.identity.listProjects(values.org))).map(row), values.json ?? false);
          return;
        }
        default:
          throw new InputError(`usage: ${USAGE}`);
      }
    });
  },
};
