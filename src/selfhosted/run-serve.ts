import { mkdir, readFile, rm } from 'node:fs/promises';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Config } from '../config/config.js';
import type { Logger } from '../observability/logger.js';
import { BundleError, describeUrl, downloadBundle } from './download.js';
import { extractTarGz } from './extract/tar.js';
import { extractZip } from './extract/zip.js';
import { createStaticServer, type SiteState } from './static-server.js';

export interface BundleCoordinates {
  url: string;
  version?: string;
  sha256?: string;
}

/** From BUNDLE_DIR files (the chart's ConfigMap) or BUNDLE_URL/BUNDLE_SHA256/BUNDLE_VERSION. */
export async function bundleCoordinates(config: Config): Promise<BundleCoordinates> {
  const fromFile = async (name: string): Promise<string | undefined> =>
    config.BUNDLE_DIR ? ((await readFile(path.join(config.BUNDLE_DIR, name), 'utf8').catch(() => '')).trim() || undefined) : undefined;
  const url = (await fromFile('url')) ?? config.BUNDLE_URL;
  if (!url) throw new BundleError('no bundle to serve: set BUNDLE_URL or BUNDLE_DIR with a `url` file', true);
  if (!/^https?:\/\//.test(url)) throw new BundleError('the bundle URL must be http(s)', true);
  const sha256 = (await fromFile('sha256')) ?? config.BUNDLE_SHA256;
  if (sha256 !== undefined && !/^[0-9a-fA-F]{64}$/.test(sha256)) throw new BundleError('the expected sha256 must be 64 hex digits', true);
  const version = (await fromFile('version')) ?? config.BUNDLE_VERSION;
  return { url, ...(version ? { version } : {}), ...(sha256 ? { sha256: sha256.toLowerCase() } : {}) };
}

export interface RunningDocsServer {
  port: number;
  ready: Promise<void>;
  state: SiteState;
  stop(): Promise<void>;
}

/**
 * Starts listening at once (health says "loading"), then downloads, verifies and
 * extracts the bundle into a fresh directory and starts serving it. `ready` rejects
 * with a clear BundleError when the bundle cannot be had.
 */
export async function runDocsServer(config: Config, log: Logger): Promise<RunningDocsServer> {
  const state: SiteState = {};
  const server: Server = createStaticServer(state);
  await new Promise<void>((resolve) => server.listen(config.HTTP_PORT, config.HTTP_HOST, resolve));
  const port = (server.address() as AddressInfo).port;
  log.info('docs server listening', { port });
  const ready = (async () => {
    const bundle = await bundleCoordinates(config);
    const work = path.join(config.SERVE_ROOT, `.download-${process.pid}`);
    const site = path.join(config.SERVE_ROOT, 'current');
    await rm(work, { recursive: true, force: true });
    await rm(site, { recursive: true, force: true });
    await mkdir(work, { recursive: true });
    await mkdir(site, { recursive: true });
    const archive = path.join(work, 'bundle');
    const started = Date.now();
    log.info('downloading bundle', { url: describeUrl(bundle.url), version: bundle.version, sha256: bundle.sha256 });
    let downloaded: Awaited<ReturnType<typeof downloadBundle>>;
    let files: number;
    try {
      downloaded = await downloadBundle(bundle.url, archive, {
        maxBytes: config.MAX_BUNDLE_BYTES, attempts: config.BUNDLE_FETCH_ATTEMPTS, timeoutMs: config.BUNDLE_FETCH_TIMEOUT_SECONDS * 1000,
        ...(bundle.sha256 ? { expectedSha256: bundle.sha256 } : {}),
        onRetry: (attempt, error) => log.warn('bundle download failed; retrying', { attempt, error: error.message }),
      });
      files = downloaded.format === 'zip'
        ? await extractZip(archive, site, config.MAX_BUNDLE_BYTES * 20)
        : await extractTarGz(archive, site, config.MAX_BUNDLE_BYTES * 20);
    } catch (error) {
      // Nothing half-written stays on the volume: no partial site, no downloaded archive.
      await rm(site, { recursive: true, force: true });
      throw error;
    } finally {
      await rm(work, { recursive: true, force: true });
    }
    Object.assign(state, { root: site, bundleId: downloaded.sha256.slice(0, 16), ...(bundle.version ? { version: bundle.version } : {}) });
    log.info('serving bundle', { files, sizeBytes: downloaded.sizeBytes, sha256: downloaded.sha256, format: downloaded.format, seconds: (Date.now() - started) / 1000 });
  })();
  return {
    port, ready, state,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
