import { parseOptions, printRows, required, runCommand, withDatabase } from '../../admin/cli-support.js';
import { InputError } from '../../domain/errors.js';
import { generateApiKey } from '../../identity/api-keys.js';
import { keyTypeSchema, type ApiKeyRecord } from '../../identity/model.js';
import type { Command } from '../command.js';

const USAGE = `docport keys create --org <organization-id> --type admin|assistant [--name <label>]
       docport keys list [--org <organization-id>] [--json]
       docport keys revoke <key-id>`;

const row = (k: ApiKeyRecord): Record<string, string> => ({
  id: k.id, organization: k.organizationId, type: k.type, name: k.name, key: `${k.displayPrefix}...`,
  created: k.createdAt.toISOString(), revoked: k.revokedAt?.toISOString() ?? '',
});

export const keysCommand: Command = {
  name: 'keys',
  summary: 'create (printed once), list and revoke API keys',
  run(args, env) {
    const [sub, ...rest] = args;
    return runCommand('keys', async () => {
      switch (sub) {
        case 'create': {
          const { values } = parseOptions(rest, { org: { type: 'string' }, type: { type: 'string' }, name: { type: 'string' } }, USAGE);
          const organizationId = required(values.org, '--org', USAGE);
          const type = keyTypeSchema.safeParse(required(values.type, '--type', USAGE));
          if (!type.success) throw new InputError(`--type must be admin or assistant (got "${values.type}")`);
          const name = values.name ?? `${type.data} key`;
          const generated = generateApiKey(type.data);
          const record = await withDatabase(env, async (db) => {
            if (!(await db.identity.getOrganization(organizationId))) throw new InputError(`organization ${organizationId} not found (docport orgs list)`);
            return db.identity.createApiKey({ organizationId, type: type.data, name, hash: generated.hash, displayPrefix: generated.displayPrefix });
          });
          process.stderr.write(`created ${record.type} key ${record.id} ("${record.name}"). It is shown only this once and stored as a hash: keep it now.\n`);
          // Only the key goes to stdout, so `KEY=$(docport keys create ...)` captures exactly it.
          process.stdout.write(`${generated.key}\n`);
          return;
        }
        case 'list': {
          const { values } = parseOptions(rest, { org: { type: 'string' }, json: { type: 'boolean', default: false } }, USAGE);
          printRows((await withDatabase(env, (db) => db.identity.listApiKeys(values.org))).map(row), values.json ?? false);
          return;
        }
        case 'revoke': {
          const { positionals } = parseOptions(rest, {}, USAGE);
          if (positionals.length !== 1) throw new InputError(`expected one key id\n\nusage: ${USAGE}`);
          const record = await withDatabase(env, (db) => db.identity.revokeApiKey(positionals[0]!));
          process.stderr.write(`revoked ${record.type} key ${record.id} (${record.displayPrefix}...) at ${record.revokedAt!.toISOString()}\n`);
          return;
        }
        default:
          throw new InputError(`usage: ${USAGE}`);
      }
    });
  },
};
