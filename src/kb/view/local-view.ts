/**
 * The local adapter of the knowledge view (view.ts): a knowledge base opened from its files, and
 * its catalog for `find` and the index. `learn` and the section read only the files they need;
 * the catalog, which reads every subject, is made on the first `find` or `index`.
 */
import type { Catalog } from '../catalog/catalog.ts';
import type { SiteIndex } from '../publish/endpoint-schemas.ts';
import type { KnowledgeBase } from '../subjects/knowledge-base.ts';
import type { Subject } from '../subjects/subjects.ts';
import type { ExtraKnowledge, KnowledgeOffer } from '../knowledge/extension.ts';
import type { FindEntry } from './find.ts';
import type { PreloadedSubject } from '../knowledge/section.ts';
import { createKnowledgeView, type KnowledgeReader, type KnowledgeView, type ReaderTopic } from './view.ts';

/** Options of {@link createLocalView}. */
export interface LocalViewOptions {
  /**
   * The catalog `find` and the index read, of the knowledge base with the learned patterns a
   * profile or `-k` values added (the catalog's learned flags follow them). Asked at
   * every `find` and `index`: answer with the same object while nothing changed, so that what is
   * made from it (find's entries, the index) is made once. Default: `buildCatalog`, once per view.
   */
  catalog?: (kb: KnowledgeBase, extra: readonly ExtraKnowledge[]) => Promise<Catalog>;
}

/** The unknown-profile message's ending when a config has no profile at all. */
const NO_PROFILES = 'There are no profiles: add a [profile.<name>] table.';

/**
 * The knowledge view of a local knowledge base. Its content errors are found as the topics are
 * read, in `kb.diagnostics()`: a host reports them after each call if it wants.
 */
export function createLocalView(kb: KnowledgeBase, options: LocalViewOptions = {}): KnowledgeView {
  return createKnowledgeView(localReader(kb, options, []));
}

function localReader(kb: KnowledgeBase, options: LocalViewOptions, extra: readonly ExtraKnowledge[]): KnowledgeReader {
  const contentOf = (subject: Subject): PreloadedSubject => ({ slug: subject.slug, content: kb.read(subject).content });

  const topics = kb.topicConfigs.map((config): ReaderTopic => {
    // Walked on first use, by the knowledge base.
    const walked = () => kb.topic(config.id)!;
    let visible: string[] | undefined;
    return {
      id: config.id,
      title: config.title,
      introduction: config.introduction,
      description: config.description,
      visible: async () =>
        (visible ??= walked()
          .subjects.filter((s) => !s.hidden)
          .map((s) => s.slug)),
      learnedSet: async () => walked().learnedSet,
      learned: async () => walked().learned,
      preloaded: async () => {
        const topic = walked();
        return topic.learned.map((slug) => contentOf(topic.bySlug.get(slug)!));
      },
      subjects: async () => {
        const topic = walked();
        return { subjects: topic.subjects, bySlug: topic.bySlug, load: async (slugs) => slugs.map((slug) => contentOf(topic.bySlug.get(slug)!)) };
      },
      exact: async (pattern) => {
        const subject = kb.findExact(config.id, pattern);
        return subject && contentOf(subject);
      },
      // Summaries are made with the catalog, which reads every subject: only an index asks for them.
      summaries: async () => new Map((await catalog()).topics.find((t) => t.id === config.id)?.subjects.map((s) => [s.slug, s.summary]) ?? []),
    };
  });

  let built: Promise<Catalog> | undefined;
  const catalog = (): Promise<Catalog> => {
    if (options.catalog) return options.catalog(kb, extra);
    if (!built) {
      const building = import('../catalog/catalog.ts').then(({ buildCatalog }) => buildCatalog(kb, { extra })).then(({ catalog }) => catalog);
      built = building;
      building.catch(() => {
        if (built === building) built = undefined;
      });
    }
    return built;
  };
  // Made once per catalog object: find's ranking prepares each entries array once.
  const entries = new WeakMap<Catalog, FindEntry[]>();
  const indexes = new WeakMap<Catalog, SiteIndex>();

  return {
    topics: async () => topics,
    offer: async (): Promise<KnowledgeOffer> => ({ topics: kb.config.topics, profiles: kb.config.profiles, noProfiles: NO_PROFILES }),
    published: async () => undefined,
    promptIndex: async () => (kb.config.kb.prompt.index ? kb.config.kb.prompt.index_budget_tokens : null),
    async findData() {
      const [current, { findEntriesOf }] = await Promise.all([catalog(), import('./find.ts')]);
      let found = entries.get(current);
      if (!found) entries.set(current, (found = findEntriesOf(current)));
      return { entries: found, topics: kb.topicConfigs };
    },
    async index() {
      const [current, { buildSiteIndex }] = await Promise.all([catalog(), import('../publish/endpoints.ts')]);
      let index = indexes.get(current);
      if (!index) indexes.set(current, (index = buildSiteIndex(current, kb.config.site)));
      return index;
    },
    // A config's profiles are patterns (offered as such), so only the added patterns change here.
    extended: (extension) => localReader(kb, options, extension.extra),
  };
}
