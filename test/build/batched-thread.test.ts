/**
 * Asking in batches through a port (src/build/batched-thread.ts), both ends in this thread over a
 * MessageChannel, as the catalog's thread counts tokens: each ask gets its own answer in order,
 * asks made before the asker yields travel in one batch, asks sent before the answering end
 * listens wait for it and are answered as it starts, an ask that throws fails alone, and a failed
 * asker refuses.
 */
import { MessageChannel, receiveMessageOnPort } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { answerBatches, askThroughPort, type Batch } from '../../src/build/batched-thread.ts';

const channels: MessageChannel[] = [];
afterEach(() => {
  for (const { port1, port2 } of channels.splice(0)) {
    port1.close();
    port2.close();
  }
});

function channel(): MessageChannel {
  const made = new MessageChannel();
  channels.push(made);
  return made;
}

describe('askThroughPort and answerBatches', () => {
  it('answers each ask in order, the asks of one turn in one batch, those sent before the other end listens too', async () => {
    const { port1, port2 } = channel();
    const asker = askThroughPort<string, number>(port1, { name: 'the counter', batchSize: 1000, sizeOf: (text) => text.length });
    const first = Promise.all(['a', 'bb', 'ccc'].map((text) => asker.ask(text)));
    // The answering end starts listening later, as the catalog's worker does once its tokenizer is in.
    await new Promise(setImmediate);
    // The asks of that turn wait as one batch (taken here to look at, then sent again).
    const waiting = receiveMessageOnPort(port2)!.message as Batch<string>;
    expect(waiting.asks).toEqual(['a', 'bb', 'ccc']);
    expect(receiveMessageOnPort(port2)).toBeUndefined();
    port1.postMessage(waiting);
    answerBatches((text: string) => text.length, undefined, port2);
    expect(await first).toEqual([1, 2, 3]);
    // A second turn: a second batch.
    const batches: number[] = [];
    port2.on('message', (batch: Batch<string>) => batches.push(batch.asks.length));
    expect(await asker.ask('dddd')).toBe(4);
    expect(batches).toEqual([1]);
  });

  it('answers the batches already waiting before it returns, so that what the thread does next does not hold them', () => {
    const { port1, port2 } = channel();
    port1.postMessage({ asks: ['a', 'bb'] } satisfies Batch<string>);
    port1.postMessage({ asks: ['ccc'] } satisfies Batch<string>);
    answerBatches((text: string) => text.length, undefined, port2);
    // Taken at once, in this turn: both replies are already there.
    expect(receiveMessageOnPort(port1)?.message).toEqual({ answers: [{ ok: 1 }, { ok: 2 }] });
    expect(receiveMessageOnPort(port1)?.message).toEqual({ answers: [{ ok: 3 }] });
  });

  it('sends a batch once its asks reach the batch size, without waiting for the turn to end', async () => {
    const { port1, port2 } = channel();
    const sizes: number[] = [];
    port2.on('message', (batch: Batch<string>) => sizes.push(batch.asks.length));
    answerBatches((text: string) => text.toUpperCase(), undefined, port2);
    const asker = askThroughPort<string, string>(port1, { name: 'the counter', batchSize: 4, sizeOf: (text) => text.length });
    expect(await Promise.all(['ab', 'cd', 'ef'].map((text) => asker.ask(text)))).toEqual(['AB', 'CD', 'EF']);
    expect(sizes).toEqual([2, 1]);
  });

  it('fails an ask that throws alone, with its message', async () => {
    const { port1, port2 } = channel();
    answerBatches(
      (text: string) => {
        if (text === 'bad') throw new Error('cannot count this');
        return text.length;
      },
      (text, error) => `${text}: ${error.message}`,
      port2,
    );
    const asker = askThroughPort<string, number>(port1, { name: 'the counter', batchSize: 1000, sizeOf: (text) => text.length });
    const [good, bad] = await Promise.allSettled([asker.ask('good'), asker.ask('bad')]);
    expect(good).toEqual({ status: 'fulfilled', value: 4 });
    expect(bad).toMatchObject({ status: 'rejected', reason: { message: 'bad: cannot count this' } });
  });

  it('refuses the asks still waiting and every later one once its owner fails it', async () => {
    const { port1, port2 } = channel();
    // Nobody answers on the other end: the ask waits until the asker is failed.
    port2.start();
    const asker = askThroughPort<string, number>(port1, { name: 'the counter', batchSize: 1000, sizeOf: (text) => text.length });
    const waiting = expect(asker.ask('asked before')).rejects.toThrow('the worker ended');
    asker.fail(new Error('the worker ended'));
    await waiting;
    await expect(asker.ask('asked after')).rejects.toThrow('the worker ended');
  });
});
