/** Running a few calls at a time (p-limit): requests, pages, with the two rules callers need for stopping early. */
import pLimit from 'p-limit';

/** How many requests to one published site run at once. */
export const MAX_CONCURRENT_REQUESTS = 8;

/**
 * Maps `items` with at most `limit` calls of `run` in flight; results keep the input order. After
 * the first failure no new call starts; once the calls in flight have settled, the failure of the
 * earliest item is thrown.
 */
export async function mapBounded<T, R>(items: readonly T[], limit: number, run: (item: T) => Promise<R>): Promise<R[]> {
  let failed = false;
  const limited = pLimit(limit);
  const settled = await Promise.allSettled(
    items.map((item) =>
      limited(async () => {
        if (failed) return undefined;
        try {
          return await run(item);
        } catch (error) {
          failed = true;
          throw error;
        }
      }),
    ),
  );
  const failure = settled.find((outcome) => outcome.status === 'rejected');
  if (failure) throw failure.reason;
  return settled.map((outcome) => (outcome as PromiseFulfilledResult<R>).value);
}

/**
 * Runs `run` on every item with at most `limit` in flight; results keep the input order. Once a
 * result satisfies `stops`, no new call starts: the items not started get that result.
 */
export async function settleBounded<T, R>(items: readonly T[], limit: number, run: (item: T) => Promise<R>, stops: (result: R) => boolean): Promise<R[]> {
  let stopped: R | undefined;
  const limited = pLimit(limit);
  return Promise.all(
    items.map((item) =>
      limited(async () => {
        if (stopped !== undefined) return stopped;
        const result = await run(item);
        if (stops(result)) stopped ??= result;
        return result;
      }),
    ),
  );
}
