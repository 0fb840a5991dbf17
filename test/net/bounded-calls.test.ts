/**
 * A few calls at a time: results in input order, at most `limit` in flight, and the two ways of
 * stopping early (mapBounded after a failure, settleBounded after a result that ends the calls).
 * Each call waits for the test to settle it, so the order of events is the test's own.
 */
import { describe, expect, it } from 'vitest';
import { mapBounded, settleBounded } from '../../src/net/bounded-calls.ts';

/** Calls that settle when the test says so, and the order they started in. */
function controlledCalls<R>() {
  const started: number[] = [];
  const settle = new Map<number, { resolve: (value: R) => void; reject: (error: Error) => void }>();
  return {
    started,
    run: (n: number) =>
      new Promise<R>((resolve, reject) => {
        started.push(n);
        settle.set(n, { resolve, reject });
      }),
    resolve: (n: number, value: R) => settle.get(n)!.resolve(value),
    reject: (n: number, error: Error) => settle.get(n)!.reject(error),
  };
}

/** Lets every pending callback run: whatever a settled call sets off has happened. */
const settled = () => new Promise((resolve) => setImmediate(resolve));

describe('mapBounded', () => {
  it('keeps the input order and starts a call whenever one of the `limit` in flight ends', async () => {
    const calls = controlledCalls<string>();
    const mapped = mapBounded([0, 1, 2, 3], 2, calls.run);
    await settled();
    expect(calls.started).toEqual([0, 1]);
    calls.resolve(1, 'one');
    await settled();
    expect(calls.started).toEqual([0, 1, 2]);
    calls.resolve(2, 'two');
    await settled();
    expect(calls.started).toEqual([0, 1, 2, 3]);
    calls.resolve(3, 'three');
    calls.resolve(0, 'zero');
    expect(await mapped).toEqual(['zero', 'one', 'two', 'three']);
  });

  it('starts nothing new after a failure and throws the failure of the earliest item once the calls in flight settle', async () => {
    const calls = controlledCalls<string>();
    const mapped = mapBounded([0, 1, 2, 3], 2, calls.run);
    const outcome = mapped.then(
      () => 'resolved',
      (error: Error) => error.message,
    );
    await settled();
    calls.reject(1, new Error('failed 1'));
    await settled();
    expect(calls.started).toEqual([0, 1]);
    calls.reject(0, new Error('failed 0'));
    expect(await outcome).toBe('failed 0');
    expect(calls.started).toEqual([0, 1]);
  });

  it('maps nothing to nothing', async () => {
    expect(await mapBounded([], 2, async () => 1)).toEqual([]);
  });
});

describe('settleBounded', () => {
  it('gives the items not started the result that ended the calls, and the others their own', async () => {
    const calls = controlledCalls<string>();
    const settledAll = settleBounded([0, 1, 2, 3], 2, calls.run, (result) => result === 'stop');
    await settled();
    calls.resolve(1, 'stop');
    await settled();
    expect(calls.started).toEqual([0, 1]);
    calls.resolve(0, 'done 0');
    expect(await settledAll).toEqual(['done 0', 'stop', 'stop', 'stop']);
    expect(calls.started).toEqual([0, 1]);
  });

  it('runs every item when no result ends the calls, at most `limit` at once', async () => {
    const calls = controlledCalls<number>();
    const settledAll = settleBounded([0, 1, 2], 1, calls.run, () => false);
    for (const n of [0, 1, 2]) {
      await settled();
      expect(calls.started).toEqual([0, 1, 2].slice(0, n + 1));
      calls.resolve(n, n * 10);
    }
    expect(await settledAll).toEqual([0, 10, 20]);
  });
});
