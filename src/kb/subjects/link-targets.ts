/**
 * What a symlink inside the knowledge base may show (content/guide/concepts/topics-and-subjects.md):
 * never more than its target shows where it lies. A target in a private folder (`.git`, the build
 * cache) or under any other dot-folder no topic publishes is skipped; a target that is a file of a
 * topic is skipped when that topic is disabled or the file is one of its disabled subjects, and
 * the link is hidden when the file is a hidden subject there.
 */
import path from 'node:path';
import type { TopicConfig } from '../config/topics.ts';
import { createDisabledMatcher, type DisabledMatcher } from './disabled.ts';
import { CACHE_FOLDER_NAME, isOutside, realPathOrSelf } from '../files/paths.ts';
import { slugOf } from './slug.ts';
import type { LinkVerdict } from './walk.ts';

/** Judges a link's target (a real path inside `bound`, the folder of the linking topic's config file). */
export type LinkJudge = (bound: string, real: string, kind: 'file' | 'folder') => LinkVerdict;

/** A folder topic's real folder and, made on first use, its `disabled` matcher. */
interface TopicPlace {
  topic: TopicConfig;
  realDir: string;
  disabled: DisabledMatcher | undefined;
}

/**
 * Makes the judge for a knowledge base's topics — every folder topic, enabled or not: a disabled
 * topic's files are exactly what a link must not publish.
 */
export function createLinkJudge(topics: readonly TopicConfig[]): LinkJudge {
  let places: TopicPlace[] | undefined;
  const placesOf = (): TopicPlace[] => (places ??= topics.filter((t) => t.kind === 'folder').map((topic) => ({ topic, realDir: realPathOrSelf(topic.dir), disabled: undefined })));

  return (bound, real, kind) => {
    const shown = displayTarget(bound, real);
    const parts = path.relative(bound, real).split(path.sep);
    if (parts.some((part) => part === '.git' || part === CACHE_FOLDER_NAME)) {
      return { show: 'skip', reason: `Skipped a symlink to ${shown}, inside Git's folder or the build cache, which are never knowledge. Remove the link.` };
    }
    const containing = placesOf().filter((place) => !isOutside(place.realDir, real));
    for (const place of containing) {
      if (!place.topic.enable) {
        return {
          show: 'skip',
          reason: `Skipped a symlink to ${shown}, in the folder of topic "${place.topic.id}", which is disabled (enable = false). Remove the link, or enable the topic.`,
        };
      }
    }
    if (containing.length === 0 && parts.some((part) => part.startsWith('.'))) {
      return {
        show: 'skip',
        reason: `Skipped a symlink to ${shown}, under a dot-folder or a dotfile that no topic publishes. Remove the link, or move what it should show into a topic folder.`,
      };
    }
    if (kind === 'folder') return { show: 'follow' };
    let hidden: LinkVerdict | undefined;
    for (const place of containing) {
      const { slug, hidden: isHidden } = slugOf(path.relative(place.realDir, real).split(path.sep).join('/'));
      place.disabled ??= createDisabledMatcher(place.topic.disabled);
      if (place.disabled.covers(slug)) {
        return {
          show: 'skip',
          reason: `Skipped a symlink to ${shown}, the disabled subject ${JSON.stringify(slug)} of topic "${place.topic.id}". Remove the link, or take the subject out of kb.topic.${place.topic.id}.disabled.`,
        };
      }
      if (isHidden) {
        hidden ??= {
          show: 'hide',
          reason: `Hidden: the symlink's target ${shown} is the hidden subject ${JSON.stringify(slug)} of topic "${place.topic.id}", and a link never shows more than its target. Link a visible subject, or start the link's name with "." to say it is hidden.`,
        };
      }
    }
    return hidden ?? { show: 'follow' };
  };
}

/** A target as messages name it: relative to the config file's folder. */
function displayTarget(bound: string, real: string): string {
  return JSON.stringify(path.relative(bound, real).split(path.sep).join('/'));
}
