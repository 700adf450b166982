import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseConfig } from '../../src/config/config.js';
import { rendererJobEnv } from '../../src/controller/run-controller.js';

describe('render Job environment', () => {
  it('carries the renderer settings so the Job parses them back identically, and no credentials', () => {
    const controller = parseConfig({
      S3_BUCKET: 'exports', S3_ENDPOINT: 'http://minio:9000', S3_ACCESS_KEY_ID: 'AKIA-SECRET-ID', S3_SECRET_ACCESS_KEY: 'very-secret',
      DATABASE_URL: 'postgres://u:pw@db/x', RENDER_MAX_PAGES: '250', RENDER_ALLOW_PRIVATE_NETWORKS: 'true', RENDER_ASSET_HOSTS: 'cdn.example.com, fonts.example.com',
    });
    const env = rendererJobEnv(controller);
    const job = parseConfig(env);
    for (const key of ['S3_BUCKET', 'S3_ENDPOINT', 'S3_REGION', 'RENDER_MAX_PAGES', 'RENDER_ALLOW_PRIVATE_NETWORKS', 'RENDER_ASSET_HOSTS', 'RENDER_PAGE_TIMEOUT_SECONDS', 'RENDER_MAX_EXPORT_BYTES', 'CHROMIUM_PATH'] as const) {
      assert.deepEqual(job[key], controller[key], key);
    }
    const text = JSON.stringify(env);
    for (const secret of ['AKIA-SECRET-ID', 'very-secret', 'pw@db']) assert.ok(!text.includes(secret), `${secret} leaked into the Job spec`);
  });
});
