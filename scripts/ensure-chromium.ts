/**
 * Finds the Chromium the browser tests drive, installing Debian's package when it can
 * (`node scripts/ensure-chromium.ts` prints the path; the test suite's global setup calls it).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const SYSTEM_CHROMIUM = '/usr/bin/chromium';

/**
 * Returns the path of a Chromium executable: `CHROMIUM_PATH` if set, else /usr/bin/chromium,
 * installing it with apt-get first when running as root on Debian. Throws when there is none.
 */
export async function ensureChromium(): Promise<string> {
  const fromEnv = process.env['CHROMIUM_PATH'];
  if (fromEnv) {
    if (fs.existsSync(fromEnv)) return fromEnv;
    throw new Error(`CHROMIUM_PATH is set to "${fromEnv}", but there is no file there. ` + `Point it at a Chromium executable, or unset it to use ${SYSTEM_CHROMIUM}.`);
  }
  if (fs.existsSync(SYSTEM_CHROMIUM)) return SYSTEM_CHROMIUM;

  const apt = findOnPath('apt-get');
  if (process.getuid?.() === 0 && fs.existsSync('/etc/debian_version') && apt) {
    process.stderr.write(`Chromium not found at ${SYSTEM_CHROMIUM}: installing Debian's chromium package with apt-get…\n`);
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    // Wait for a concurrent apt/dpkg run instead of failing on its lock.
    const lock = ['-o', 'DPkg::Lock::Timeout=300'];
    await run(apt, [...lock, 'update'], env);
    await run(apt, [...lock, 'install', '-y', '--no-install-recommends', 'chromium'], env);
    if (fs.existsSync(SYSTEM_CHROMIUM)) return SYSTEM_CHROMIUM;
    throw new Error(`apt-get installed chromium, but ${SYSTEM_CHROMIUM} still does not exist. Set CHROMIUM_PATH to its executable.`);
  }

  throw new Error(
    `The browser tests need Chromium: CHROMIUM_PATH is not set and ${SYSTEM_CHROMIUM} does not exist. ` +
      `Install it (\`sudo apt-get install chromium\` on Debian), or set CHROMIUM_PATH to a Chromium executable.`,
  );
}

function findOnPath(command: string): string | undefined {
  for (const dir of (process.env['PATH'] ?? '').split(path.delimiter)) {
    const file = path.join(dir, command);
    if (dir && fs.existsSync(file)) return file;
  }
  return undefined;
}

/** Runs a command quietly; on failure, prints everything it wrote and throws. */
function run(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    const output: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => output.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => output.push(chunk));
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (code === 0) return resolve();
      process.stderr.write(Buffer.concat(output));
      const status = signal ? `was killed by ${signal}` : `exited with code ${code}`;
      reject(new Error(`\`${[command, ...args].join(' ')}\` ${status} (its output is above). Install chromium yourself, or set CHROMIUM_PATH.`));
    });
  });
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  ensureChromium().then(
    (file) => console.log(file),
    (error: unknown) => {
      console.error(`error: ${error instanceof Error ? error.message : String(error)}`);
      process.exitCode = 1;
    },
  );
}
