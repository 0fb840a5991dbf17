// A `learn` tool for any JavaScript agent runtime, backed by the syllabus commands (run in this process).
//
//   npm install -D syllabus-kb
//   SYLLABUS_CONFIG=kb/kb.toml node agent.mjs     # without it, content/kb.toml
//
// knowledgeForAgent() gives the system-prompt text and the tool definition (either may be null);
// learn(args) answers one tool call with { text, isError }.
import { run } from 'syllabus-kb';

/** Runs a syllabus command in this process: its exit code and output, as the command line gives them. */
async function syllabus(args) {
  const { code, stdout, stderr } = await run(args);
  return { code, stdout: stdout.replace(/\n$/, ''), stderr };
}

/** The error message syllabus printed, without its `error: ` prefix. */
function errorMessage(stderr) {
  const line = stderr.split('\n').find((l) => l.startsWith('error: '));
  return line ? line.slice('error: '.length) : stderr.trim();
}

/** The <knowledge> prompt section and the learn tool definition, once per session. */
export async function knowledgeForAgent(extraArgs = []) {
  const { code, stdout, stderr } = await syllabus(['prompt', '--json', ...extraArgs]);
  if (code !== 0) throw new Error(`syllabus prompt failed (exit ${code}): ${errorMessage(stderr)}`);
  const { prompt, tool, tokens } = JSON.parse(stdout);
  return { prompt, tool, tokens };
}

/** Answers one call of the learn tool: { topic: string, subjects?: string | string[] | null }. */
export async function learn({ topic, subjects } = {}) {
  if (typeof topic !== 'string') return { text: 'The "topic" argument is required.', isError: true };
  const patterns = (Array.isArray(subjects) ? subjects : subjects == null ? [] : [subjects])
    .filter((s) => typeof s === 'string' && s !== '');
  // "--" ends the options, so a topic or pattern starting with "-" stays an argument.
  const { code, stdout, stderr } = await syllabus(['learn', '--', topic, ...patterns]);
  if (code === 0) return { text: stdout, isError: false };
  if (code === 1) return { text: errorMessage(stderr), isError: true };
  throw new Error(`syllabus learn failed (exit ${code}): ${errorMessage(stderr)}`);
}

// Example:
//   const { prompt, tool } = await knowledgeForAgent(['--profile', 'integrator']);
//   const systemPrompt = [basePrompt, prompt].filter(Boolean).join('\n\n');
//   const tools = tool ? [tool] : [];
//   …when the model calls "learn": const result = await learn(JSON.parse(call.arguments));
