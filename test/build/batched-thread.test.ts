/**
 * Asking in batches through a port (src/build/batched-thread.ts), both ends in this thread over a
 * MessageChannel, as the catalog's thread counts tokens: each ask gets its own answer in order,
 * asks made before the asker yields travel in one batch, the preparation runs once and before
 * any answer, a failed preparation fails every ask with its message, and a failed asker refuses.
 */
import { MessageChannel } from 'node:worker_threads';
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
  it('answers each ask in order, the asks of one turn in one batch, after preparing once', async () => {
    const { port1, port2 } = channel();
    const events: string[] = [];
    port2.on('message', (batch: Batch<string>) => events.push(`batch of ${batch.asks.length}`));
    answerBatches((text: string) => text.length, undefined, {
      port: port2,
      prepare: async () => {
        events.push('prepared');
      },
    });
    const asker = askThroughPort<string, number>(port1, { name: 'the counter', batchSize: 1000, sizeOf: (text) => text.length });
    expect(await Promise.all(['a', 'bb', 'ccc'].map((text) => asker.ask(text)))).toEqual([1, 2, 3]);
    // A second turn: a second batch, and no second preparation.
    expect(await asker.ask('dddd')).toBe(4);
    expect(events).toEqual(['batch of 3', 'prepared', 'batch of 1']);
  });

  it('sends a batch once its asks reach the batch size, without waiting for the turn to end', async () => {
    const { port1, port2 } = channel();
    const sizes: number[] = [];
    port2.on('message', (batch: Batch<string>) => sizes.push(batch.asks.length));
    answerBatches((text: string) => text.toUpperCase(), undefined, { port: port2 });
    const asker = askThroughPort<string, string>(port1, { name: 'the counter', batchSize: 4, sizeOf: (text) => text.length });
    expect(await Promise.all(['ab', 'cd', 'ef'].map((text) => asker.ask(text)))).toEqual(['AB', 'CD', 'EF']);
    expect(sizes).toEqual([2, 1]);
  });

  it('fails every ask with the message of a failed preparation, and an ask that throws alone', async () => {
    const { port1, port2 } = channel();
    answerBatches(
      (text: string) => {
        if (text === 'bad') throw new Error('cannot count this');
        return text.length;
      },
      (text, error) => `${text}: ${error.message}`,
      { port: port2 },
    );
    const asker = askThroughPort<string, number>(port1, { name: 'the counter', batchSize: 1000, sizeOf: (text) => text.length });
    const [good, bad] = await Promise.allSettled([asker.ask('good'), asker.ask('bad')]);
    expect(good).toEqual({ status: 'fulfilled', value: 4 });
    expect(bad).toMatchObject({ status: 'rejected', reason: { message: 'bad: cannot count this' } });

    const other = channel();
    answerBatches((text: string) => text.length, undefined, { port: other.port2, prepare: () => Promise.reject(new Error('the tokenizer did not load')) });
    const failing = askThroughPort<string, number>(other.port1, { name: 'the counter', batchSize: 1000, sizeOf: (text) => text.length });
    await expect(Promise.all([failing.ask('one'), failing.ask('two')])).rejects.toThrow('the tokenizer did not load');
    await expect(failing.ask('three')).rejects.toThrow('the tokenizer did not load');
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
