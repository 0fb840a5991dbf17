/**
 * The worker thread of the render stage (render-threads.ts starts it): renders the subjects it is
 * sent with the site's own renderer, at most {@link WORKER_CONCURRENCY} at once, and sends each
 * rendering back under the number it came with.
 */
import { parentPort, workerData } from 'node:worker_threads';
import pLimit from 'p-limit';
import type { CatalogSubject } from '../../kb/catalog/catalog.ts';
import type { RenderContext } from './markdown-plugins.ts';
import { createMarkdownRenderer } from './markdown-renderer.ts';
import { renderSubject } from './render-subjects.ts';
import type { RenderReply, RenderTask, RenderWorkerData } from './render-threads.ts';

/** Renders at most this many subjects at once (Shiki's highlighting is asynchronous). */
const WORKER_CONCURRENCY = 8;

const port = parentPort!;
const shared = workerData as RenderWorkerData;
// Relative links are resolved from the subject that holds them: the subjects being rendered, each
// under its file as the build's own map of subjects by file gives it (learnings share one file).
const byFile = new Map<string, CatalogSubject>();
const rendering = new Map<string, number>();
const context: RenderContext = { ...shared, byFile };
const renderer = await createMarkdownRenderer(() => context);
const limited = pLimit(WORKER_CONCURRENCY);

port.on('message', (task: RenderTask) => {
  void limited(async () => {
    const { file } = task.subject;
    const from = task.linkFrom === undefined ? task.subject : task.linkFrom;
    if (from) byFile.set(file, from);
    rendering.set(file, (rendering.get(file) ?? 0) + 1);
    let reply: RenderReply;
    try {
      reply = { n: task.n, rendering: await renderSubject(task.subject, renderer) };
    } catch (error) {
      reply = { n: task.n, error: error instanceof Error ? (error.stack ?? error.message) : String(error) };
    }
    const left = rendering.get(file)! - 1;
    if (left === 0) {
      rendering.delete(file);
      byFile.delete(file);
    } else {
      rendering.set(file, left);
    }
    port.postMessage(reply);
  });
});
