/** `syllabus init`: sets a folder up for Syllabus. */
import type { CommandIo } from './io.ts';

export const INIT_HELP = `Usage: syllabus init [options]`;

/** Runs `init`; returns the exit code. */
export async function initCommand(_argv: string[], io: CommandIo): Promise<number> {
  io.err('error: init is not written yet.');
  return 1;
}
