import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DefaultControllerRateLimiter, ExponentialFailureRateLimiter, TokenBucketRateLimiter } from '../../src/controller/runtime/rate-limiter.js';
import { WorkQueue } from '../../src/controller/runtime/work-queue.js';

const tick = (ms = 0) => new Promise((r) => setTimeout(r, ms));

describe('WorkQueue', () => {
  it('deduplicates keys that are waiting', async () => {
    const q = new WorkQueue();
    q.add('a'); q.add('b'); q.add('a');
    assert.equal(q.length, 2);
    assert.equal(await q.get(), 'a');
    assert.equal(await q.get(), 'b');
  });

  it('never hands a key to two workers: a key added while processing comes back after done()', async () => {
    const q = new WorkQueue();
    q.add('a');
    const key = await q.get();
    q.add('a');
    assert.equal(q.length, 0, 'not queued while processing');
    let second: string | undefined;
    void q.get().then((k) => (second = k));
    await tick();
    assert.equal(second, undefined);
    q.done(key!);
    await tick();
    assert.equal(second, 'a');
  });

  it('addAfter delays, keeping the earliest time for a key', async () => {
    const q = new WorkQueue();
    q.addAfter('a', 200);
    q.addAfter('a', 20);
    q.addAfter('a', 500);
    const started = Date.now();
    assert.equal(await q.get(), 'a');
    const waited = Date.now() - started;
    assert.ok(waited >= 15 && waited < 190, `waited ${waited} ms`);
  });

  it('shutDown drains what is queued, then get() resolves undefined', async () => {
    const q = new WorkQueue();
    q.add('a');
    const waiting = new WorkQueue();
    const pending = waiting.get();
    q.shutDown();
    waiting.shutDown();
    assert.equal(await q.get(), 'a');
    assert.equal(await q.get(), undefined);
    assert.equal(await pending, undefined);
    q.add('b');
    assert.equal(q.length, 0, 'no intake after shutdown');
  });
});

describe('rate limiters', () => {
  it('backs off per key exponentially from 5 ms to a 1000 s cap, and forgets on success', () => {
    const r = new ExponentialFailureRateLimiter();
    assert.deepEqual([r.when('a'), r.when('a'), r.when('a'), r.when('b')], [5, 10, 20, 5]);
    for (let i = 0; i < 40; i++) r.when('a');
    assert.equal(r.when('a'), 1_000_000);
    r.forget('a');
    assert.equal(r.when('a'), 5);
  });

  it('caps the overall rate with a token bucket (burst, then 10/s)', () => {
    let now = 0;
    const bucket = new TokenBucketRateLimiter(10, 3, () => now);
    assert.deepEqual([bucket.reserve(), bucket.reserve(), bucket.reserve()], [0, 0, 0]);
    assert.equal(bucket.reserve(), 100);
    assert.equal(bucket.reserve(), 200);
    now = 1000;
    assert.equal(bucket.reserve(), 0);
  });

  it('takes the larger of the two', () => {
    const r = new DefaultControllerRateLimiter(new ExponentialFailureRateLimiter(), new TokenBucketRateLimiter(10, 1, () => 0));
    assert.equal(r.when('a'), 5);
    assert.equal(r.when('b'), 100);
  });
});
