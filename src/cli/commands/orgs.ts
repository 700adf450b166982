import { parseOptions, printRows, required, runCommand, withDatabase } from '../../admin/cli-support.js';
import { InputError } from '../../domain/errors.js';
import { planSchema, PLANS, type Organization } from '../../identity/model.js';
import type { Command } from '../command.js';

const USAGE = `docport orgs create --name <name> [--plan ${PLANS.join('|')}]
       docport orgs list [--json]
       docport orgs set-plan <organization-id> <${PLANS.join('|')}>`;

const row = (o: Organization): Record<string, string> => ({ id: o.id, name: o.name, plan: o.plan, created: o.createdAt.toISOString() });

function plan(value: string): (typeof PLANS)[number] {
  const parsed = planSchema.safeParse(value);
  if (!parsed.success) throw new InputError(`plan must be one of ${PLANS.join(', ')} (got "${value}")`);
  return parsed.data;
}

export const orgsCommand: Command = {
  name: 'orgs',
  summary: 'create and list organizations, change their plan',
  run(args, env) {
    const [sub, ...rest] = args;
    return runCommand('orgs', async () => {
      switch (sub) {
        case 'create': {
          const { values } = parseOptions(rest, { name: { type: 'string' }, plan: { type: 'string', default: 'free' } }, USAGE);
          const name = required(values.name, '--name', USAGE);
          if (name.trim() === '' || name.length > 200) throw new InputError('--name must be 1-200 characters');
          const org = await withDatabase(env, (db) => db.identity.createOrganization({ name, plan: plan(values.plan ?? 'free') }));
          process.stderr.write(`created organization "${org.name}" (${org.plan} plan)\n`);
          process.stdout.write(`${org.id}\n`);
          return;
        }
        case 'list': {
          const { values } = parseOptions(rest, { json: { type: 'boolean', default: false } }, USAGE);
          printRows((await withDatabase(env, (db) => db.identity.listOrganizations())).map(row), values.json ?? false);
          return;
        }
        case 'set-plan': {
          const { positionals } = parseOptions(rest, {}, USAGE);
          if (positionals.length !== 2) throw new InputError(`expected an organization id and a plan\n\nusage: ${USAGE}`);
          const org = await withDatabase(env, (db) => db.identity.setPlan(positionals[0]!, plan(positionals[1]!)));
          process.stderr.write(`organization "${org.name}" is now on the ${org.plan} plan\n`);
          return;
        }
        default:
          throw new InputError(`usage: ${USAGE}`);
      }
    });
  },
};
