/**
 * Resolving subject patterns (SPEC 3) against a published site. The catalog lists visible
 * subjects only, so the exact-equality step asks the site for a hidden subject at the address of
 * the pattern (and of the pattern without leading dots); then the core's `resolvePatterns` decides
 * over the listed subjects and the hidden ones found, as it does locally.
 */
import { compareStrings } from '../kb/diagnostics/diagnostics.ts';
import { type Resolution, resolvePatterns } from '../kb/subjects/resolve.ts';
import { dropLeadingDots } from '../kb/subjects/slug.ts';
import type { SubjectFile, TopicEntry } from '../kb/publish/endpoint-schemas.ts';
import { MAX_CONCURRENT_REQUESTS, mapBounded } from '../net/bounded-calls.ts';
import type { RemoteSite } from './remote-site.ts';

/** What resolution found: the core's answer, and the hidden subjects fetched on the way (by slug). */
export interface RemoteResolution {
  resolution: Resolution;
  hidden: Map<string, SubjectFile>;
}

/**
 * Resolves `patterns` in a topic of the site. `skipInGlobs` are slugs that globs skip (the `learn`
 * tool's learned subjects); `-k` values skip none.
 */
export async function resolveRemotePatterns(
  site: RemoteSite,
  topic: TopicEntry,
  patterns: readonly string[],
  skipInGlobs?: ReadonlySet<string>,
): Promise<RemoteResolution> {
  const listed = new Set(topic.subjects.map((s) => s.slug));
  const probes = new Set<string>();
  for (const pattern of patterns) {
    // Exact equality, in SPEC 3's order: the pattern, then the pattern without leading dots.
    for (const slug of new Set([pattern, dropLeadingDots(pattern)])) {
      if (listed.has(slug)) break;
      if (couldBeSlug(slug)) probes.add(slug);
    }
  }
  const found = await mapBounded([...probes], MAX_CONCURRENT_REQUESTS, (slug) => site.findSubject(topic.id, slug));
  const hidden = new Map<string, SubjectFile>();
  for (const subject of found) if (subject) hidden.set(subject.slug, subject);

  const subjects = [...topic.subjects.map((s) => ({ slug: s.slug, hidden: false })), ...[...hidden.keys()].map((slug) => ({ slug, hidden: true }))];
  subjects.sort((a, b) => compareStrings(a.slug, b.slug));
  const bySlug = new Map(subjects.map((s) => [s.slug, s]));
  const resolution = resolvePatterns(subjects, bySlug, patterns, skipInGlobs ? { skipInGlobs } : {});
  return { resolution, hidden };
}

/** Whether a slug could exist: none has an empty segment (SPEC 2). Others are not worth a request. */
function couldBeSlug(slug: string): boolean {
  return slug.split('/').every((segment) => segment !== '');
}
