import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { before, describe, it } from 'node:test';
import { S3ObjectStore } from '../../src/adapters/s3/s3-object-store.js';
import { UnavailableError } from '../../src/domain/errors.js';
import { testBucket, type TestBucket } from '../support/s3.js';

describe('S3ObjectStore against the SigV4-checking server', () => {
  let s3: TestBucket;
  let store: S3ObjectStore;
  before(async () => {
    s3 = await testBucket();
    store = S3ObjectStore.fromSettings({ ...s3, forcePathStyle: true });
  });

  it('puts, heads and reads objects; a missing object is undefined', async () => {
    await store.put('exports/j1/files/index.html', '<p>hi</p>', 'text/html');
    assert.deepEqual(await store.head('exports/j1/files/index.html'), { sizeBytes: 9, contentType: 'text/html' });
    assert.equal((await store.read('exports/j1/files/index.html'))?.toString(), '<p>hi</p>');
    assert.equal(await store.head('exports/j1/missing'), undefined);
    assert.equal(await store.read('exports/j1/missing'), undefined);
    await store.ping();
  });

  it('streams a multipart upload and reports its size', async () => {
    const chunks = Array.from({ length: 20 }, () => Buffer.alloc(1024 * 1024, 1));
    const { sizeBytes } = await store.upload('exports/j1/bundle.zip', Readable.from(chunks), 'application/zip');
    assert.equal(sizeBytes, 20 * 1024 * 1024);
    assert.equal((await store.head('exports/j1/bundle.zip'))?.sizeBytes, sizeBytes);
  });

  it('presigns a link that works and reports its expiry', async () => {
    const now = new Date();
    const { url, expiresAt } = await store.presignGet('exports/j1/files/index.html', 120, now);
    const lifetime = (expiresAt.getTime() - now.getTime()) / 1000;
    assert.ok(lifetime > 119 && lifetime <= 120, `lifetime ${lifetime}`); // SigV4 dates have whole seconds
    const response = await fetch(url);
    assert.equal(response.status, 200);
    assert.equal(await response.text(), '<p>hi</p>');
  });

  it('deletes a prefix (idempotently) and refuses dangerous prefixes', async () => {
    await store.put('exports/j2/a', 'a', 'text/plain');
    assert.equal(await store.deletePrefix('exports/j1/'), 2);
    assert.equal(await store.deletePrefix('exports/j1/'), 0);
    assert.ok(await store.head('exports/j2/a'));
    await assert.rejects(store.deletePrefix(''), /must be non-empty/);
    await assert.rejects(store.deletePrefix('exports/j2'), /end with "\/"/);
  });

  it('types failures of a wrongly configured store, without credentials in the message', async () => {
    const wrong = S3ObjectStore.fromSettings({ ...s3, secretAccessKey: 'wrong-secret-value', forcePathStyle: true });
    await assert.rejects(wrong.put('x', 'y', 'text/plain'), (error: Error) => {
      assert.ok(error instanceof UnavailableError);
      assert.match(error.message, /HTTP 403/);
      assert.ok(!error.message.includes('wrong-secret-value') && !error.message.includes(s3.secretAccessKey));
      return true;
    });
  });
});
