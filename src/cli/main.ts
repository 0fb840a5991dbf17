/**
 * The `syllabus` command line: dispatches to one module per command and maps errors to exit codes.
 * A command's module is loaded only when it runs, so that a quick command (`learn`) loads only
 * what it uses.
 */
import { CliError } from './errors.ts';
import type { CommandIo } from './io.ts';
import { terminalStatus } from './progress.ts';

type Command = (argv: string[], io: CommandIo) => Promise<number>;

/** A command: one line for the overview, and its module (its function and its help text). */
interface CommandEntry {
  summary: string;
  load: () => Promise<{ run: Command; help: string }>;
}

const COMMANDS: Record<string, CommandEntry> = {
  init: {
    summary: 'set this folder up: kb.toml, a first topic, scripts and workflows',
    load: async () => import('./init.ts').then((m) => ({ run: m.initCommand, help: m.INIT_HELP })),
  },
  learn: { summary: "the learn tool's result for a topic and patterns", load: async () => import('./learn.ts').then((m) => ({ run: m.learnCommand, help: m.LEARN_HELP })) },
  prompt: { summary: 'the <knowledge> section of the system prompt', load: async () => import('./prompt.ts').then((m) => ({ run: m.promptCommand, help: m.PROMPT_HELP })) },
  schema: {
    summary: "the learn tool's parameters schema (--tool: its definition)",
    load: async () => import('./schema.ts').then((m) => ({ run: m.schemaCommand, help: m.SCHEMA_HELP })),
  },
  check: { summary: 'validate the configuration and every subject', load: async () => import('./check.ts').then((m) => ({ run: m.checkCommand, help: m.CHECK_HELP })) },
  build: { summary: 'build the site and its endpoints into dist/', load: async () => import('./build.ts').then((m) => ({ run: m.buildCommand, help: m.BUILD_HELP })) },
  join: {
    summary: 'join the parts of a site built with build --part into one site',
    load: async () => import('./join.ts').then((m) => ({ run: m.joinCommand, help: m.JOIN_HELP })),
  },
  diff: { summary: 'what changed between two versions (kb.toml, dist/ or URL)', load: async () => import('./diff.ts').then((m) => ({ run: m.diffCommand, help: m.DIFF_HELP })) },
  eval: {
    summary: 'how well find, the prompt and learn lead to the answers of a question set',
    load: async () => import('./eval.ts').then((m) => ({ run: m.evalCommand, help: m.EVAL_HELP })),
  },
  find: { summary: 'the listed subjects that match a query, best first', load: async () => import('./find.ts').then((m) => ({ run: m.findCommand, help: m.FIND_HELP })) },
  dev: { summary: 'serve the site while you write', load: async () => import('./dev.ts').then((m) => ({ run: m.devCommand, help: m.DEV_HELP })) },
  preview: { summary: 'serve a built site', load: async () => import('./preview.ts').then((m) => ({ run: m.previewCommand, help: m.PREVIEW_HELP })) },
  learnings: {
    summary: 'maintain a learnings store: add, stats, prune',
    load: async () => import('./learnings.ts').then((m) => ({ run: m.learningsCommand, help: m.LEARNINGS_HELP })),
  },
  skills: {
    summary: 'the Agent Skills of the knowledge base; export a topic as skill folders',
    load: async () => import('./skills.ts').then((m) => ({ run: m.skillsCommand, help: m.SKILLS_HELP })),
  },
  mcp: { summary: 'the agent server (Model Context Protocol) on stdio or HTTP', load: async () => import('./mcp.ts').then((m) => ({ run: m.mcpCommand, help: m.MCP_HELP })) },
};

export const MAIN_HELP = `Usage: syllabus <command> [options]

Syllabus turns a knowledge base of plain files into a site for people and endpoints for agents.

Commands:
${Object.entries(COMMANDS)
  .map(([name, c]) => `  ${name.padEnd(9)} ${c.summary}`)
  .join('\n')}

Run "syllabus <command> --help" for a command's options, "syllabus --version" for the version.
Exit codes: 0 success, 1 tool error or failed check, 2 usage or configuration error.`;

/** Runs the command line; returns the exit code. Never throws. */
export async function main(argv: string[], io: CommandIo): Promise<number> {
  const [name, ...rest] = argv;
  if (name === '--version' || name === '-v' || name === 'version') {
    io.out((await import('../build/package-info.ts')).packageVersion());
    return 0;
  }
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    const topic = name === 'help' ? rest[0] : undefined;
    io.out(topic && COMMANDS[topic] ? (await COMMANDS[topic].load()).help : MAIN_HELP);
    return name === undefined ? 2 : 0;
  }
  const command = COMMANDS[name];
  if (!command) {
    io.err(`error: unknown command ${JSON.stringify(name)}. Commands: ${Object.keys(COMMANDS).join(', ')}.`);
    io.err('Run "syllabus --help" for usage.');
    return 2;
  }
  try {
    return await (await command.load()).run(rest, io);
  } catch (error) {
    if (error instanceof CliError) {
      io.err(`error: ${error.message}`);
      for (const line of error.details) io.err(line);
      return error.exitCode;
    }
    const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
    io.err(`error: syllabus failed unexpectedly. This is a bug; please report it with the output below.\n${message}`);
    return 1;
  }
}

/** Runs the command line on the real process: stdout, stderr, exit code. */
export async function runProcess(argv: string[]): Promise<void> {
  const io: CommandIo = {
    cwd: process.cwd(),
    env: process.env,
    // Looked up by the commands that show progress only: knowing whether stderr is a terminal
    // loads Node's terminal and socket modules, more than a short command's whole work.
    get status() {
      return terminalStatus(process.stderr, process.env);
    },
    // Looked up by `mcp` only, for the same reason: Node sets stdin and stdout up when first read.
    get stdio() {
      return { input: process.stdin, output: process.stdout };
    },
    out: (text) => {
      if (text !== '') writeAll(1, `${text}\n`);
    },
    err: (line) => {
      writeAll(2, `${line}\n`);
    },
  };
  process.exitCode = await main(argv, io);
}

/**
 * Writes `text` to a file descriptor at once. Results and messages are written synchronously, in
 * order, and never left in a buffer at exit; it also spares a short command (`learn`) setting up
 * Node's output streams. A descriptor that is not ready (a non-blocking pipe) is waited for.
 */
function writeAll(fd: number, text: string): void {
  const fs = process.getBuiltinModule('node:fs');
  let bytes = Buffer.from(text, 'utf8');
  while (bytes.length > 0) {
    try {
      bytes = bytes.subarray(fs.writeSync(fd, bytes));
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      // The reader went away (`syllabus learn … | head`): what is left has no one to read it.
      if (code === 'EPIPE') return;
      if (code !== 'EAGAIN') throw error;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1);
    }
  }
}
