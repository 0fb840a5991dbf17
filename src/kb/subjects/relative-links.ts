/** Relative links written inside subjects: which topic file they point at (content/guide/the-site.md, "How subjects are shown"). */
import path from 'node:path';
import { isOutside } from '../files/paths.ts';
import { dropLeadingDots, slugOf } from './slug.ts';

/** A topic as links see it: its id and absolute folder. */
export interface LinkTopic {
  id: string;
  dir: string;
}

/** Where a relative link points. */
export interface LinkTarget {
  topic: string;
  /** Path relative to the target topic's folder (`''` for the folder itself). */
  path: string;
  /** Slug of the file, or of the folder when `folder` is true. */
  slug: string;
  /** True when the link names a folder (`guide/`, `..`). */
  folder: boolean;
  /** The `#fragment`, with its `#`, or `''`. */
  fragment: string;
}

const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/;

/**
 * Resolves a link written in subject `from` (its topic and path in the topic folder; a learning,
 * whose topic's `dir` is its store file, links from the folder that holds the store).
 * Returns null for absolute URLs, site-absolute paths, bare fragments, paths that leave every
 * topic folder, and any link of a URL source (it points into its own site): those are left as
 * written.
 */
export function resolveSubjectLink(href: string, from: { topic: string; path: string; learning?: unknown; source?: unknown }, topics: readonly LinkTopic[]): LinkTarget | null {
  if (from.source || href === '' || href.startsWith('#') || href.startsWith('/') || href.startsWith('\\') || SCHEME.test(href)) return null;
  const hash = href.indexOf('#');
  const fragment = hash === -1 ? '' : href.slice(hash);
  const beforeHash = hash === -1 ? href : href.slice(0, hash);
  const query = beforeHash.indexOf('?');
  let target = query === -1 ? beforeHash : beforeHash.slice(0, query);
  try {
    target = decodeURIComponent(target);
  } catch {
    return null;
  }
  const fromTopic = topics.find((t) => t.id === from.topic);
  if (!fromTopic) return null;
  if (target === '') return null;
  const base = from.learning ? path.dirname(fromTopic.dir) : path.resolve(fromTopic.dir, path.dirname(from.path));
  const absolute = path.resolve(base, target);
  const folder = target.endsWith('/') || target === '.' || target === '..' || target.endsWith('/.') || target.endsWith('/..');
  const owner = [fromTopic, ...topics.filter((t) => t !== fromTopic)].filter((t) => !isOutside(t.dir, absolute)).sort((a, b) => b.dir.length - a.dir.length)[0];
  if (!owner) return null;
  const relative = path.relative(owner.dir, absolute).split(path.sep).join('/');
  const slug = folder ? dropLeadingDots(relative) : slugOf(relative).slug;
  return { topic: owner.id, path: relative, slug, folder, fragment };
}
