import { parseArgs } from 'node:util';
import { z } from 'zod';
import { domainSchema, pathSchema, versionSchema } from '../../apis/staticexport/spec.js';
import { createLogger } from '../../observability/logger.js';
import { ProgressReporter } from '../../renderer/progress.js';
import { runIndex } from '../../renderer/run-index.js';
import { safeErrorMessage } from '../../renderer/run-export.js';
import type { Command } from '../command.js';
import { chromiumFactory, loadConfig, postgresSearchIndex, printToStderr, settingsFrom } from './render-wiring.js';

const USAGE = 'usage: docport index --origin <url> --domain <domain> [--version <version>] [--path /prefix/ ...]';

const argsSchema = z.object({
  origin: z.url({ protocol: /^https?$/, error: 'must be an absolute http(s) URL' }),
  domain: domainSchema,
  version: versionSchema.optional(),
  paths: z.array(pathSchema).optional(),
});

export const indexCommand: Command = {
  name: 'index',
  summary: 'crawl a site like `render` and refresh its search index, without exporting (needs DATABASE_URL)',
  async run(args, env) {
    let values: { origin?: string; domain?: string; version?: string; path?: string[] };
    try {
      values = parseArgs({
        args: [...args],
        options: { origin: { type: 'string' }, domain: { type: 'string' }, version: { type: 'string' }, path: { type: 'string', multiple: true } },
      }).values;
    } catch (error) {
      console.error(`docport index: ${error instanceof Error ? error.message : String(error)}\n${USAGE}`);
      return 2;
    }
    const parsed = argsSchema.safeParse({ origin: values.origin, domain: values.domain, version: values.version, paths: values.path });
    if (!parsed.success) {
      console.error(`docport index:\n${parsed.error.issues.map((i) => `  --${String(i.path[0] ?? '?')}: ${i.message}`).join('\n')}\n${USAGE}`);
      return 2;
    }
    const config = loadConfig(env);
    if (!config) return 2;
    if (!config.DATABASE_URL) {
      console.error('docport index: DATABASE_URL must be configured: the search index lives in PostgreSQL');
      return 2;
    }
    const log = createLogger(config.LOG_LEVEL, { component: 'indexer', domain: parsed.data.domain });
    const settings = settingsFrom(config);
    const searchIndex = postgresSearchIndex(config.DATABASE_URL);
    try {
      const request = { ...parsed.data, ...(parsed.data.paths ? { paths: parsed.data.paths } : {}) };
      const outcome = await runIndex(request, {
        searchIndex, settings, log, openBrowser: chromiumFactory(settings, log),
        progress: new ProgressReporter(undefined, printToStderr, log),
      });
      printToStderr(`docport index: ${outcome.pages} pages, ${outcome.sections} sections indexed for ${parsed.data.domain}${parsed.data.version ? ` ${parsed.data.version}` : ''}; ${outcome.failed.length} failed`);
      return 0;
    } catch (error) {
      printToStderr(`docport index: failed: ${safeErrorMessage(error)}`);
      return 1;
    } finally {
      await searchIndex.close();
    }
  },
};
