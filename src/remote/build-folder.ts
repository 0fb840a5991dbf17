/**
 * A build folder (`dist/`) read as a published site: the remote client's files come from disk
 * instead of HTTP, so that a build that is not served (the base of a preview build, a side of
 * `syllabus diff`) answers `find`, `learn` and the section exactly as its site would.
 */
import fs from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { z } from 'zod';
import { type Fetched, type FileKind, parseEndpointJson, RemoteError } from './fetch-json.ts';
import { openRemoteSite, type RemoteSite } from './remote-site.ts';
import { createRemoteView } from './remote-view.ts';
import type { KnowledgeView } from '../kb/view/view.ts';

/**
 * Reads an endpoint file of a build folder by its `file:` URL, checked as the remote client
 * checks what it fetches; a missing file is not found (as HTTP 404 is).
 */
export async function readBuildFile<T>(url: string, schema: z.ZodType<T>, what: FileKind): Promise<Fetched<T>> {
  const file = fileURLToPath(url);
  let text: string;
  try {
    text = await fs.promises.readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { found: false };
    throw new RemoteError(`cannot read ${file} (${(error as Error).message}). Check its permissions.`);
  }
  return { found: true, value: parseEndpointJson(file, text, schema, what) };
}

/** The site a build folder holds, its files read from disk. */
export function openBuildFolder(dir: string): RemoteSite {
  return openRemoteSite(pathToFileURL(`${dir.replace(/\/+$/, '')}/`).href, { readJson: readBuildFile, cacheMs: Number.POSITIVE_INFINITY });
}

/** The knowledge view of a build folder: the answers its site gives agents. */
export function openBuildFolderView(dir: string): KnowledgeView {
  return createRemoteView(openBuildFolder(dir));
}
