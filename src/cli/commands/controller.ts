import { loadConfigOrReport } from '../load-config.js';
import { runController } from '../../controller/run-controller.js';
import { createLogger } from '../../observability/logger.js';
import type { Command } from '../command.js';

export const controllerCommand: Command = {
  name: 'controller',
  summary: 'run the StaticExport controller (leader-elected; SIGTERM stops it gracefully)',
  async run(_args, env) {
    const config = loadConfigOrReport(env);
    if (!config) return 2;
    const log = createLogger(config.LOG_LEVEL, { component: 'controller' });
    // Like controller-runtime: a replica that loses its lease exits and is restarted, so it
    // never keeps acting on work it no longer owns.
    const running = await runController(config, env, log, () => {
      log.error('leadership lost; exiting');
      process.exit(1);
    });
    await new Promise<void>((resolve) => {
      const stop = (signal: string): void => {
        log.info('shutting down', { signal });
        void running.stop().then(resolve);
      };
      process.once('SIGTERM', () => stop('SIGTERM'));
      process.once('SIGINT', () => stop('SIGINT'));
    });
    return 0;
  },
};
