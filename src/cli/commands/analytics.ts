import { parseOptions, runCommand, withDatabase } from '../../admin/cli-support.js';
import { PgAssistantEvents } from '../../adapters/postgres/pg-assistant-events.js';
import { importAssistantEvents } from '../../analytics/jsonl-import.js';
import { InputError } from '../../domain/errors.js';
import type { Command } from '../command.js';

const USAGE = `docport analytics import <events.jsonl> [--batch-size <n>]
  one JSON object per line: {"projectId": "<uuid>", "timestamp": "2024-03-01T09:30:00Z", "caller": "web|api|other"}`;

export const analyticsCommand: Command = {
  name: 'analytics',
  summary: 'import assistant request events from JSONL (progress on stderr)',
  run(args, env) {
    const [sub, ...rest] = args;
    return runCommand('analytics', async () => {
      if (sub !== 'import') throw new InputError(`usage: ${USAGE}`);
      const { values, positionals } = parseOptions(rest, { 'batch-size': { type: 'string', default: '10000' } }, USAGE);
      if (positionals.length !== 1) throw new InputError(`expected one file\n\nusage: ${USAGE}`);
      const batchSize = Number(values['batch-size']);
      if (!Number.isInteger(batchSize) || batchSize < 1 || batchSize > 100_000) throw new InputError('--batch-size must be an integer from 1 to 100000');
      const { imported } = await withDatabase(env, async (db) =>
        importAssistantEvents({
          file: positionals[0]!,
          events: await PgAssistantEvents.create({ pool: db.pool }),
          projectExists: async (id) => (await db.identity.getProject(id)) !== undefined,
          progress: (line) => process.stderr.write(`${line}\n`),
          batchSize,
        }));
      process.stdout.write(`${imported}\n`);
    });
  },
};
