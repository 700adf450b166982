import type { Config } from '../config/config.js';

/** The renderer's knobs, taken once from the parsed configuration (docs/renderer.md explains each). */
export interface RendererSettings {
  concurrency: number;
  pageTimeoutMs: number;
  pageRetries: number;
  quietMs: number;
  maxPages: number;
  maxAssetBytes: number;
  maxExportBytes: number;
  /** Hosts (host or host:port) besides the origin whose resources may be downloaded. */
  assetHosts: readonly string[];
  /** Allows loopback and private (RFC 1918, ULA) addresses; link-local and metadata stay refused. */
  allowPrivateNetworks: boolean;
  workDir: string;
  chromiumPath: string;
}

export function rendererSettings(config: Config, defaultWorkDir: string): RendererSettings {
  return {
    concurrency: config.RENDER_CONCURRENCY,
    pageTimeoutMs: config.RENDER_PAGE_TIMEOUT_SECONDS * 1000,
    pageRetries: config.RENDER_PAGE_RETRIES,
    quietMs: config.RENDER_QUIET_MS,
    maxPages: config.RENDER_MAX_PAGES,
    maxAssetBytes: config.RENDER_MAX_ASSET_BYTES,
    maxExportBytes: config.RENDER_MAX_EXPORT_BYTES,
    assetHosts: config.RENDER_ASSET_HOSTS,
    allowPrivateNetworks: config.RENDER_ALLOW_PRIVATE_NETWORKS,
    workDir: config.RENDER_WORK_DIR ?? defaultWorkDir,
    chromiumPath: config.CHROMIUM_PATH,
  };
}
