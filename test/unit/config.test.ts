import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError, parseConfig } from '../../src/config/config.js';

describe('parseConfig', () => {
  it('applies documented defaults to an empty environment', () => {
    const config = parseConfig({});
    assert.equal(config.HTTP_PORT, 8080);
    assert.equal(config.PRESIGN_TTL_SECONDS, 86400);
    assert.equal(config.RENDER_EXECUTOR, 'kubernetes');
    assert.equal(config.S3_FORCE_PATH_STYLE, true);
    assert.ok(Object.isFrozen(config));
  });

  it('treats empty strings as unset', () => {
    assert.equal(parseConfig({ HTTP_PORT: '', DATABASE_URL: '' }).HTTP_PORT, 8080);
  });

  it('reports every problem at once, by variable name', () => {
    assert.throws(
      () => parseConfig({ HTTP_PORT: 'eighty', LOG_LEVEL: 'loud', PRESIGN_TTL_SECONDS: '5', RENDER_EXECUTOR: 'ssh' }),
      (error: ConfigError) => {
        assert.ok(error instanceof ConfigError);
        assert.deepEqual(error.problems.map((p) => p.split(':')[0]).sort(), ['HTTP_PORT', 'LOG_LEVEL', 'PRESIGN_TTL_SECONDS', 'RENDER_EXECUTOR']);
        return true;
      },
    );
  });

  it('checks settings that only make sense together', () => {
    assert.throws(() => parseConfig({ S3_ACCESS_KEY_ID: 'AKIA', S3_ENDPOINT: 'http://s3.local' }), (error: ConfigError) => {
      assert.match(error.message, /S3_SECRET_ACCESS_KEY: required/);
      assert.match(error.message, /S3_BUCKET: required/);
      return true;
    });
    assert.throws(() => parseConfig({ HTTP_PORT: '9000', METRICS_PORT: '9000' }), /METRICS_PORT: must differ/);
  });

  it('never echoes secret values in its errors', () => {
    const secret = 'postgres-password-in-url';
    assert.throws(
      () => parseConfig({ DATABASE_URL: `mysql://u:${secret}@db/x`, S3_SECRET_ACCESS_KEY: 'sk-very-secret', S3_ACCESS_KEY_ID: '' }),
      (error: ConfigError) => {
        assert.ok(!error.message.includes(secret));
        assert.ok(!error.message.includes('sk-very-secret'));
        assert.match(error.message, /DATABASE_URL: must be a postgres/);
        return true;
      },
    );
  });
});
