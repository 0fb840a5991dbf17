/**
 * The stop signal of the long-running commands (src/cli/stop-signal.ts) in a process that has
 * loaded proper-lockfile, as a build or a learnings store does: its signal-exit ends the process
 * with the signal when it finds itself the only listener left, so the first Ctrl-C must still find
 * the command's own listener there; the second ends the process at once.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, stopChild } from '../helpers/run-cli.ts';

const SCRIPT = `
import { waitForStopSignal } from ${JSON.stringify(path.join(ROOT, 'src/cli/stop-signal.ts'))};
const stopped = waitForStopSignal();
// Loaded after the command listens, as a build under \`build --watch\` loads it.
await import('proper-lockfile');
// What a server does: keep the process alive.
const alive = setInterval(() => undefined, 1000);
process.stdout.write('ready\\n');
await stopped;
process.stdout.write('stopping\\n');
if (process.argv.at(-1) === 'end') clearInterval(alive);
`;

/** Starts the script (`end`: it ends once stopped; `linger`: it stays); resolves once it listens for the signal. */
async function started(mode: 'end' | 'linger') {
  const child = spawn(process.execPath, ['--input-type=module', '-e', SCRIPT, mode], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  let output = '';
  let exited = false;
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.on('exit', () => (exited = true));
  /** Resolves once the output holds `text`; throws when the script ended first. */
  const printed = async (text: string): Promise<void> => {
    while (!output.includes(text)) {
      if (exited) throw new Error(`the script ended before it printed ${JSON.stringify(text)}: ${JSON.stringify(output)}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
  await printed('ready\n');
  return { child, output: () => output, printed };
}

describe('waitForStopSignal', () => {
  it('lets the command stop cleanly on the first Ctrl-C, with proper-lockfile loaded', async () => {
    const { child, output } = await started('end');
    expect(await stopChild(child, 'SIGINT')).toBe(0);
    expect(output()).toBe('ready\nstopping\n');
  });

  it('ends the process at once on a second Ctrl-C', async () => {
    const { child, printed } = await started('linger');
    child.kill('SIGINT');
    await printed('stopping\n');
    const exited = new Promise<NodeJS.Signals | null>((resolve) => child.once('exit', (_code, signal) => resolve(signal)));
    child.kill('SIGINT');
    expect(await exited).toBe('SIGINT');
  });
});
