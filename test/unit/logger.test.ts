import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createLogger } from '../../src/observability/logger.js';

describe('logger redaction', () => {
  it('redacts secret-named fields, bearer tokens, API keys, presigned signatures and URL passwords', () => {
    const lines: string[] = [];
    const log = createLogger('debug', { component: 't' }, (l) => lines.push(l));
    log.info('auth failed for Bearer dpa_abcdefghijklmnop', {
      authorization: 'Bearer x', s3SecretAccessKey: 'sk', nested: { apiKey: 'k', ok: 1 },
      url: 'https://s3/b/k?X-Amz-Credential=AK%2F1&X-Amz-Signature=deadbeef&x=1',
      db: 'postgres://user:hunter2@db:5432/x', err: new Error('key dps_0123456789abcdef rejected'),
    });
    const text = lines.join('\n');
    for (const secret of ['dpa_abcdefghijklmnop', 'deadbeef', 'AK%2F1', 'hunter2', 'dps_0123456789abcdef', '"sk"', '"k"']) {
      assert.ok(!text.includes(secret), `leaked ${secret}: ${text}`);
    }
    const record = JSON.parse(lines[0]!) as Record<string, unknown>;
    assert.equal(record.component, 't');
    assert.deepEqual(record.nested, { apiKey: '[redacted]', ok: 1 });
  });

  it('filters by level', () => {
    const lines: string[] = [];
    const log = createLogger('warn', {}, (l) => lines.push(l));
    log.info('no');
    log.warn('yes');
    assert.equal(lines.length, 1);
  });
});
