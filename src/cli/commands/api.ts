import { parseConfig } from '../../config/config.js';
import { createLogger } from '../../observability/logger.js';
import type { Command } from '../command.js';

export const apiCommand: Command = {
  name: 'api',
  summary: 'serve the REST API (migrations run at startup; /metrics and probes on METRICS_PORT)',
  async run(_args, env) {
    const config = parseConfig(env);
    const logger = createLogger(config.LOG_LEVEL, { component: 'api' });
    // Loaded on use: the server pulls in the Kubernetes and S3 clients, which other commands do not need.
    const { startApiServer } = await import('../../api/server.js');
    const running = await startApiServer(config, logger);
    await new Promise<void>((resolve) => {
      const shutdown = (signal: string): void => {
        logger.info('shutting down', { signal });
        running.stop(config.API_DRAIN_SECONDS * 1000).then(resolve, (error: unknown) => {
          logger.error('shutdown failed', { error });
          resolve();
        });
      };
      process.once('SIGTERM', () => shutdown('SIGTERM'));
      process.once('SIGINT', () => shutdown('SIGINT'));
    });
    return 0;
  },
};
