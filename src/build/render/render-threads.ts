/**
 * Rendering many subjects in worker threads, one after the other, each worker rendering at most
 * a batch of them before it ends (content/reference/decisions.md, "The render stage's workers").
 * Sätteri keeps native memory for every document it renders until the thread that rendered it
 * ends; one long-lived renderer would hold it for every subject of the site. A worker renders
 * with the same renderer and the same site as the build, so its renderings are the same.
 */
import type { CatalogSubject } from '../../kb/catalog/catalog.ts';
import type { RenderContext } from './markdown-plugins.ts';
import type { SubjectRendering } from './rendering-cache.ts';
import { moduleUrl } from '../module-url.ts';
import { startThread } from '../start-thread.ts';

/**
 * Subjects one worker renders at most before it ends and the next one starts: Sätteri keeps
 * about 8 kB for every document, so a worker holds about 32 MB of it at the most.
 */
export const SUBJECTS_PER_WORKER = 4000;

/** What a worker is started with: the render context without its map of subjects by file. */
export type RenderWorkerData = Omit<RenderContext, 'byFile'>;

/**
 * One subject to render: `n` numbers it in its batch; `linkFrom` is the subject the build's map of
 * subjects by file gives for its file, when that is another one (null: none).
 */
export interface RenderTask {
  n: number;
  subject: CatalogSubject;
  linkFrom?: CatalogSubject | null;
}

/** A worker's answer to task `n`: its rendering, or why it failed. */
export type RenderReply = { n: number; rendering: SubjectRendering } | { n: number; error: string };

const WORKER_URL = moduleUrl('./render-worker', import.meta.url);

/**
 * Renders `subjects` in worker threads, as few as hold at most `perWorker` each, in batches of
 * equal size, and calls `rendered` with each rendering as it comes; rejects with the first
 * failure, or once `signal` aborts (the worker then ends at once).
 */
export async function renderInWorkers(
  subjects: readonly CatalogSubject[],
  context: RenderContext,
  rendered: (subject: CatalogSubject, rendering: SubjectRendering) => void,
  perWorker = SUBJECTS_PER_WORKER,
  signal?: AbortSignal,
): Promise<void> {
  const data: RenderWorkerData = { allowHtml: context.allowHtml, base: context.base, linkTopics: context.linkTopics, rawUrls: context.rawUrls };
  const size = workerBatchSize(subjects.length, perWorker);
  for (let start = 0; start < subjects.length; start += size) {
    signal?.throwIfAborted();
    await renderBatch(subjects.slice(start, start + size), context.byFile, data, rendered, signal);
  }
}

/** The subjects each worker renders: as few workers as hold `subjects` at most `perWorker` each, given equal shares. */
export function workerBatchSize(subjects: number, perWorker: number): number {
  return subjects <= perWorker ? Math.max(subjects, 1) : Math.ceil(subjects / Math.ceil(subjects / perWorker));
}

/** Renders one batch in a worker of its own, which ends with it. */
async function renderBatch(
  batch: readonly CatalogSubject[],
  byFile: RenderContext['byFile'],
  data: RenderWorkerData,
  rendered: (subject: CatalogSubject, rendering: SubjectRendering) => void,
  signal: AbortSignal | undefined,
): Promise<void> {
  const worker = startThread(WORKER_URL, { workerData: data });
  let stop: (() => void) | undefined;
  try {
    await new Promise<void>((resolve, reject) => {
      let left = batch.length;
      stop = () => reject(signal!.reason instanceof Error ? signal!.reason : new Error('the rendering was stopped'));
      signal?.addEventListener('abort', stop, { once: true });
      worker.on('message', (reply: RenderReply) => {
        if ('error' in reply) {
          reject(new Error(`rendering ${batch[reply.n]!.file} failed: ${reply.error}`));
          return;
        }
        rendered(batch[reply.n]!, reply.rendering);
        if (--left === 0) resolve();
      });
      worker.on('error', reject);
      worker.on('exit', (code) => reject(new Error(`the render worker stopped (exit code ${code}) with ${left} subjects left`)));
      batch.forEach((subject, n) => {
        const from = byFile.get(subject.file);
        const task: RenderTask = from === subject ? { n, subject } : { n, subject, linkFrom: from ?? null };
        worker.postMessage(task);
      });
    });
  } finally {
    if (stop) signal?.removeEventListener('abort', stop);
    await worker.terminate();
  }
}
