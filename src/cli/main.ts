/** The `syllabus` command line: dispatches to one function per command and maps errors to exit codes. */
import { buildCommand, BUILD_HELP } from './build.ts';
import { checkCommand, CHECK_HELP } from './check.ts';
import { devCommand, DEV_HELP } from './dev.ts';
import { diffCommand, DIFF_HELP } from './diff.ts';
import { CliError } from './errors.ts';
import { findCommand, FIND_HELP } from './find.ts';
import { initCommand, INIT_HELP } from './init.ts';
import type { CommandIo } from './io.ts';
import { learnCommand, LEARN_HELP } from './learn.ts';
import { learningsCommand, LEARNINGS_HELP } from './learnings.ts';
import { mcpCommand, MCP_HELP } from './mcp.ts';
import { previewCommand, PREVIEW_HELP } from './preview.ts';
import { promptCommand, PROMPT_HELP } from './prompt.ts';
import { schemaCommand, SCHEMA_HELP } from './schema.ts';

type Command = (argv: string[], io: CommandIo) => Promise<number>;

const COMMANDS: Record<string, { run: Command; help: string; summary: string }> = {
  init: { run: initCommand, help: INIT_HELP, summary: 'set this folder up: kb.toml, a first topic, scripts and workflows' },
  learn: { run: learnCommand, help: LEARN_HELP, summary: "the learn tool's result for a topic and patterns" },
  prompt: { run: promptCommand, help: PROMPT_HELP, summary: 'the <knowledge> section of the system prompt' },
  schema: { run: schemaCommand, help: SCHEMA_HELP, summary: "the learn tool's parameters schema (--tool: its definition)" },
  check: { run: checkCommand, help: CHECK_HELP, summary: 'validate the configuration and every subject' },
  build: { run: buildCommand, help: BUILD_HELP, summary: 'build the site and its endpoints into dist/' },
  diff: { run: diffCommand, help: DIFF_HELP, summary: 'what changed between two versions (kb.toml, dist/ or URL)' },
  find: { run: findCommand, help: FIND_HELP, summary: 'the listed subjects that match a query, best first' },
  dev: { run: devCommand, help: DEV_HELP, summary: 'serve the site while you write' },
  preview: { run: previewCommand, help: PREVIEW_HELP, summary: 'serve a built site' },
  learnings: { run: learningsCommand, help: LEARNINGS_HELP, summary: 'maintain a learnings store: add, stats, prune' },
  mcp: { run: mcpCommand, help: MCP_HELP, summary: 'the agent server (Model Context Protocol) on stdio' },
};

export const MAIN_HELP = `Usage: syllabus <command> [options]

Syllabus turns a knowledge base of plain files into a site for people and endpoints for agents.

Commands:
${Object.entries(COMMANDS)
  .map(([name, c]) => `  ${name.padEnd(9)} ${c.summary}`)
  .join('\n')}

Run "syllabus <command> --help" for a command's options.
Exit codes: 0 success, 1 tool error or failed check, 2 usage or configuration error.`;

/** Runs the command line; returns the exit code. Never throws. */
export async function main(argv: string[], io: CommandIo): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    const topic = name === 'help' ? rest[0] : undefined;
    io.out(topic && COMMANDS[topic] ? COMMANDS[topic].help : MAIN_HELP);
    return name === undefined ? 2 : 0;
  }
  const command = COMMANDS[name];
  if (!command) {
    io.err(`error: unknown command ${JSON.stringify(name)}. Commands: ${Object.keys(COMMANDS).join(', ')}.`);
    io.err('Run "syllabus --help" for usage.');
    return 2;
  }
  try {
    return await command.run(rest, io);
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
  const ci = process.env['CI'];
  const terminal = process.stderr.isTTY === true && (ci === undefined || ci === '' || ci === 'false' || ci === '0');
  const io: CommandIo = {
    cwd: process.cwd(),
    env: process.env,
    status: terminal ? (line) => process.stderr.write(line === null ? '\r\x1b[2K' : `\r\x1b[2K${line.slice(0, (process.stderr.columns || 80) - 1)}`) : undefined,
    out: (text) => {
      if (text !== '') process.stdout.write(`${text}\n`);
    },
    err: (line) => {
      process.stderr.write(`${line}\n`);
    },
  };
  process.exitCode = await main(argv, io);
}
