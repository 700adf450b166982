import { ConfigError, parseConfig, type Config } from '../config/config.js';

/** Parses the configuration for a long-running command; on problems prints them all and returns undefined (exit 2). */
export function loadConfigOrReport(env: Readonly<Record<string, string | undefined>>): Config | undefined {
  try {
    return parseConfig(env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(error.message);
    return undefined;
  }
}
