import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createLogger } from '../../src/observability/logger.js';
import { ProgressReporter } from '../../src/renderer/progress.js';

describe('progress reporting', () => {
  it('patches at most once per interval, never backwards, and always sends the final state', async () => {
    let now = 0;
    const sent: Array<[number, number]> = [];
    const lines: string[] = [];
    const reporter = new ProgressReporter((p, n) => Promise.resolve(void sent.push([p, n])), (l) => lines.push(l), createLogger('error'), 1000, () => now);
    reporter.update(5, 1);
    await Promise.resolve();
    reporter.update(10, 2);
    now = 500;
    reporter.update(20, 3);
    now = 1200;
    await new Promise((r) => setImmediate(r));
    reporter.update(15.7, 4);
    await new Promise((r) => setImmediate(r));
    await reporter.finish(100, 9);
    assert.deepEqual(sent, [[5, 1], [20, 4], [100, 9]]);
    assert.equal(lines.length, 3);
    assert.match(lines.at(-1)!, /100%\s+9 pages\s+done/);
  });

  it('keeps going when a patch fails', async () => {
    const reporter = new ProgressReporter(() => Promise.reject(new Error('apiserver down')), () => undefined, createLogger('error'));
    reporter.update(50, 1);
    await reporter.finish(undefined, 1);
  });
});
