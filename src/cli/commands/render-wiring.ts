import { tmpdir } from 'node:os';
import { ChromiumPagePool } from '../../adapters/playwright/chromium-page-pool.js';
import { createPool } from '../../adapters/postgres/pool.js';
import { PgSearchIndex } from '../../adapters/postgres/pg-search-index.js';
import { ConfigError, parseConfig, type Config } from '../../config/config.js';
import { CHROMIUM_ARGS } from '../../devenv/chromium.js';
import type { Logger } from '../../observability/logger.js';
import type { SearchIndex } from '../../ports/search-index.js';
import type { BrowserFactory } from '../../renderer/crawl-session.js';
import { rendererSettings, type RendererSettings } from '../../renderer/settings.js';

/** Shared wiring of `docport render` and `docport index`. */

export function loadConfig(env: Readonly<Record<string, string | undefined>>): Config | undefined {
  try {
    return parseConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`docport: ${error.message}`);
      return undefined;
    }
    throw error;
  }
}

export function settingsFrom(config: Config): RendererSettings {
  return rendererSettings(config, tmpdir());
}

export function chromiumFactory(settings: RendererSettings, log: Logger): BrowserFactory {
  return (proxyServer) => Promise.resolve(new ChromiumPagePool({
    executablePath: settings.chromiumPath, args: CHROMIUM_ARGS, proxyServer,
    size: settings.concurrency, timeoutMs: settings.pageTimeoutMs, quietMs: settings.quietMs, log,
  }));
}

/** The PostgreSQL search index, connected (and migrated) on first use; close() ends the pool. */
export function postgresSearchIndex(databaseUrl: string): SearchIndex & { close(): Promise<void> } {
  const pool = createPool(databaseUrl, 2);
  let index: Promise<PgSearchIndex> | undefined;
  return {
    async replaceSections(domain, version, sections) {
      index ??= PgSearchIndex.create({ pool });
      return (await index).replaceSections(domain, version, sections);
    },
    close: () => pool.end(),
  };
}

export const printToStderr = (line: string): void => void process.stderr.write(`${line}\n`);
