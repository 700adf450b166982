import { loadConfigOrReport } from '../load-config.js';
import { createLogger } from '../../observability/logger.js';
import { runDocsServer } from '../../selfhosted/run-serve.js';
import type { Command } from '../command.js';

export const serveCommand: Command = {
  name: 'serve',
  summary: 'serve a static export bundle (downloaded, verified and extracted at startup)',
  async run(_args, env) {
    const config = loadConfigOrReport(env);
    if (!config) return 2;
    const log = createLogger(config.LOG_LEVEL, { component: 'docs' });
    const running = await runDocsServer(config, log);
    try {
      await running.ready;
    } catch (error) {
      // Exit so the Pod restarts with backoff and the reason is in its last log line.
      log.error('cannot serve the bundle', { error: error instanceof Error ? error.message : String(error) });
      await running.stop();
      return 1;
    }
    await new Promise<void>((resolve) => {
      const stop = (): void => void running.stop().then(resolve);
      process.once('SIGTERM', stop);
      process.once('SIGINT', stop);
    });
    return 0;
  },
};
