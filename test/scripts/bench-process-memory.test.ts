import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { SAMPLE_MS, commandLabel, formatPeaks, mergePeaks, nextPeak, processTree, runSampled, sampleProcessTree, summarisePeaks } from '../../scripts/bench-process-memory.ts';

const MB = 1024 * 1024;

describe('commandLabel', () => {
  it('names a Node process by the script it runs, and any other by its program', () => {
    expect(commandLabel('node\n', ['/work/node_modules/node/bin/node', '--enable-source-maps', '/work/bin/syllabus.js', 'build'])).toBe('node syllabus.js');
    expect(commandLabel('MainThread\n', ['node', 'scripts/bench-floor.ts', 'pages', 'out'])).toBe('node bench-floor.ts');
    expect(commandLabel('node\n', ['node'])).toBe('node');
    expect(commandLabel('node\n', ['node', '--import', 'tsx', 'script.ts'])).toBe('node script.ts');
    expect(commandLabel('node\n', ['node', '-e', 'console.log(1)'])).toBe('node -e');
    // The kernel cuts a command name to 15 bytes; the program's own name is whole.
    expect(commandLabel('pagefind_extend\n', ['/work/node_modules/@pagefind/linux-x64/bin/pagefind_extended', '--service'])).toBe('pagefind_extended');
    expect(commandLabel('git\n', ['git', 'log'])).toBe('git');
    expect(commandLabel('esbuild\n', [])).toBe('esbuild');
  });
});

describe('nextPeak', () => {
  it('keeps the largest sample of one program, and starts again after exec', () => {
    expect(nextPeak(undefined, { bytes: 5, image: '/bin/node' })).toBe(5);
    expect(nextPeak({ bytes: 9, image: '/bin/node' }, { bytes: 5, image: '/bin/node' })).toBe(9);
    expect(nextPeak({ bytes: 1400, image: '/bin/node' }, { bytes: 15, image: '/bin/esbuild' })).toBe(15);
    expect(nextPeak({ bytes: 9, image: undefined }, { bytes: 5, image: '/bin/esbuild' })).toBe(9);
  });
});

describe('summarisePeaks, mergePeaks and formatPeaks', () => {
  const first = summarisePeaks([
    { pid: 10, command: 'node syllabus.js', bytes: 800 * MB },
    { pid: 11, command: 'pagefind_extended', bytes: 150 * MB },
    { pid: 12, command: 'node syllabus.js', bytes: 300 * MB },
    { pid: 13, command: 'git', bytes: 512 * 1024 },
  ]);
  const second = summarisePeaks([{ pid: 20, command: 'pagefind_extended', bytes: 340 * MB }]);

  it('keeps the largest process of each command, and how many processes ran it', () => {
    expect(Object.fromEntries(first.byCommand)).toEqual({
      'node syllabus.js': { bytes: 800 * MB, processes: 2 },
      pagefind_extended: { bytes: 150 * MB, processes: 1 },
      git: { bytes: 512 * 1024, processes: 1 },
    });
    expect(first.largest).toBe(800 * MB);
  });

  it('merges runs command by command', () => {
    const merged = mergePeaks([first, second]);
    expect(formatPeaks(merged)).toBe('node syllabus.js (2 processes) 800 MB, pagefind_extended 340 MB, git < 1 MB');
    expect(merged.largest).toBe(800 * MB);
    expect(formatPeaks(mergePeaks([]))).toBe('n/a');
  });
});

describe('processTree and runSampled', () => {
  it('finds the descendants of a process', async () => {
    const child = spawn('sh', ['-c', 'sleep 30 & wait'], { stdio: 'ignore' });
    try {
      let tree: number[] = [];
      while (tree.length < 2) {
        tree = processTree(child.pid!);
        await new Promise((resolve) => setImmediate(resolve));
      }
      expect(tree[0]).toBe(child.pid);
      expect(tree).toHaveLength(2);
    } finally {
      child.kill('SIGKILL');
      await once(child, 'close');
    }
  });

  it("samples every process of a child's tree, its grandchildren included, by command", async () => {
    // The grandchild holds 64 MB resident, says so, and waits for its input to end; the child waits for it.
    const grandchild = "const b = Buffer.alloc(64 * 1024 * 1024, 1); console.log('ready', b[0]); process.stdin.resume(); process.stdin.on('end', () => {})";
    const child = `require('node:child_process').spawnSync(process.execPath, ['-e', ${JSON.stringify(grandchild)}], { stdio: 'inherit' })`;
    const run = spawn(process.execPath, ['-e', child], { stdio: ['pipe', 'pipe', 'inherit'] });
    const sampler = sampleProcessTree(run.pid!);
    run.stdout.setEncoding('utf8');
    const [ready] = (await once(run.stdout, 'data')) as [string];
    // Sampled while both are running: stop() reads the tree once more before it returns.
    const peaks = sampler.stop();
    run.stdin.end();
    await once(run, 'close');
    expect(ready).toBe('ready 1\n');
    expect(peaks.processes.map((p) => p.command)).toEqual(['node -e', 'node -e']);
    expect(peaks.byCommand.get('node -e')!.processes).toBe(2);
    expect(peaks.largest).toBeGreaterThan(64 * MB);
  });

  it("starts a process's peak again when it runs another program, as the kernel does", async () => {
    // 96 MB resident under Node, then the same process runs `sleep`: its peak is sleep's.
    const code = "const b = Buffer.alloc(96 * 1024 * 1024, 1); console.log('ready', b[0]); process.stdin.once('data', () => process.execve('/bin/sleep', ['sleep', '0.3']))";
    const run = spawn(process.execPath, ['-e', code], { stdio: ['pipe', 'pipe', 'inherit'] });
    const sampler = sampleProcessTree(run.pid!);
    run.stdout.setEncoding('utf8');
    await once(run.stdout, 'data');
    // Sampled while it runs Node, before it runs sleep.
    await new Promise((resolve) => setTimeout(resolve, 3 * SAMPLE_MS));
    run.stdin.write('go\n');
    await once(run, 'close');
    const peaks = sampler.stop();
    expect([...peaks.byCommand.keys()]).toEqual(['sleep']);
    expect(peaks.largest).toBeLessThan(32 * MB);
  });

  it('runs a command to its end, with its output, exit code and peaks', async () => {
    const run = await runSampled(process.execPath, ['-e', 'console.log(1); process.exitCode = 3'], process.cwd());
    expect({ code: run.code, signal: run.signal, stdout: run.stdout }).toEqual({ code: 3, signal: null, stdout: '1\n' });
    expect([...run.peaks.byCommand.keys()]).toEqual(['node -e']);
  });
});
