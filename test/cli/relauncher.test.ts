/**
 * The bin started by an older system Node runs itself again on the project's Node: a server it
 * starts (`preview`) must stop with it, whether it is asked to stop (SIGTERM, SIGINT) or killed.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { BIN, findSystemNode, userEnv } from '../helpers/run-cli.ts';
import { makeTree } from '../helpers/temp-tree.ts';

/** Starts `syllabus preview` on the system Node; resolves with the process and its port once it serves. */
function startPreview(): Promise<{ parent: ChildProcess; port: number }> {
  const site = makeTree({ 'dist/index.html': '<!doctype html><title>Built</title>\n' });
  const parent = spawn(findSystemNode(), [BIN, 'preview', '--port', '0'], { cwd: site, env: userEnv(), stdio: ['ignore', 'ignore', 'pipe'] });
  return new Promise((resolve, reject) => {
    let stderr = '';
    parent.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
      const port = /at http:\/\/127\.0\.0\.1:(\d+)\//.exec(stderr)?.[1];
      if (port) resolve({ parent, port: Number(port) });
    });
    parent.on('exit', () => reject(new Error(`preview ended before it served:\n${stderr}`)));
  });
}

/** Whether something accepts connections on the port. */
function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** Resolves once nothing listens on the port any more (the test's own timeout bounds the wait). */
async function closed(port: number): Promise<void> {
  while (await listening(port)) await new Promise((resolve) => setTimeout(resolve, 50));
}

describe('the bin started by an older Node', () => {
  it.each(['SIGTERM', 'SIGINT'] as const)('passes %s on to the server it started, and ends as it does', async (signal) => {
    const { parent, port } = await startPreview();
    expect(await listening(port)).toBe(true);
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => parent.on('exit', (code, sig) => resolve({ code, signal: sig })));
    parent.kill(signal);
    // preview stops cleanly on either signal: the re-launched child exits 0, and so does the parent.
    expect(await exited).toEqual({ code: 0, signal: null });
    await closed(port);
  });

  it('stops the server when it is killed outright', async () => {
    const { parent, port } = await startPreview();
    expect(await listening(port)).toBe(true);
    parent.kill('SIGKILL');
    await closed(port);
    expect(await listening(port)).toBe(false);
  });
});
