/** Running a few requests at a time. */

/** How many requests to one site run at once. */
export const MAX_CONCURRENT_REQUESTS = 8;

/**
 * Maps `items` with at most `limit` calls of `run` in flight; results keep the input order. After
 * the first failure no new call starts; once the calls in flight have settled, the failure of the
 * earliest item is thrown.
 */
export async function mapBounded<T, R>(items: readonly T[], limit: number, run: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  const failures = new Map<number, unknown>();
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length && failures.size === 0) {
      const index = next++;
      try {
        results[index] = await run(items[index]!);
      } catch (error) {
        failures.set(index, error);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  if (failures.size > 0) throw failures.get(Math.min(...failures.keys()));
  return results;
}
