/**
 * Tokens counted in a worker thread (src/build/token-thread.ts): the same counts as this thread's,
 * in order, across batches; a stopped counter refuses, with a message.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { countTokensHere } from '../../src/kb/catalog/tokens.ts';
import { startTokenThread, type TokenThread } from '../../src/build/token-thread.ts';

let thread: TokenThread | undefined;
afterEach(async () => {
  await thread?.stop();
  thread = undefined;
});

describe('startTokenThread', () => {
  it('counts what this thread counts, each text under its own promise, small ones and batches over the size limit alike', async () => {
    thread = startTokenThread();
    const texts = ['', 'Hello, world.', '# Heading\n\nSome *markdown* with `code`.\n', 'żółć — ünïcödé 🙂', 'word '.repeat(60_000), 'tail'];
    const counts = await Promise.all(texts.map((text) => thread!.count(text)));
    expect(counts).toEqual(await Promise.all(texts.map(countTokensHere)));
    // Asked again after the first answers: a second exchange with the same thread.
    expect(await thread.count('Hello, world.')).toBe(counts[1]);
  });

  it('refuses counts once stopped, the ones still waiting included', async () => {
    thread = startTokenThread();
    const waiting = expect(thread.count('asked before the stop')).rejects.toThrow('the token counter was stopped');
    await thread.stop();
    await waiting;
    await expect(thread.count('asked after')).rejects.toThrow('the token counter was stopped');
  });
});
