/**
 * What each page shows (src/astro/route-data.ts), from a catalog written by hand: topic trees,
 * breadcrumbs, previous/next, small folders, raw files, edit links, dates and `[site] base`.
 * No disk, no Astro.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SMALL_FOLDER, buildSiteRoutes, type FileHistory, type SubjectRoute } from '../../src/build/route-data.ts';
import { addressOf, slugOf, type Catalog, type CatalogSubject, type CatalogTopic, type SiteConfig } from '../../src/kb/index.ts';
import { SITE_DEFAULTS } from '../../src/kb/config/defaults.ts';

const DIR = '/repo/kb/guide';

/** A catalog subject of topic `guide` from its path in the topic folder; everything else defaults. */
function subject(fields: Partial<CatalogSubject> & { path: string }, dir = DIR): CatalogSubject {
  const { slug, hidden } = slugOf(fields.path);
  return {
    topic: 'guide',
    slug,
    address: addressOf(slug),
    file: `${dir}/${fields.path}`,
    hidden,
    learned: false,
    format: 'markdown',
    language: null,
    skipped: null,
    title: slug.slice(slug.lastIndexOf('/') + 1),
    summary: '',
    keywords: [],
    headings: [],
    confidence: 1,
    learning: null,
    source: null,
    frontMatter: {},
    bytes: 10,
    sha256: '0'.repeat(64),
    tokens: 3,
    content: 'text',
    ...fields,
  };
}

function topic(fields: Partial<CatalogTopic> & { id: string; subjects: CatalogSubject[] }): CatalogTopic {
  return { title: undefined, introduction: undefined, description: undefined, dir: DIR, tokens: 0, listing: '', ...fields };
}

function catalogOf(...topics: CatalogTopic[]): Catalog {
  return { topics, knowledge: { prompt: null, tool: null, tokens: 0, topics: [], indexBudget: null }, profiles: new Map() };
}

/** The site of a kb.toml without a [site] table. */
const SITE: SiteConfig = { ...SITE_DEFAULTS };
const NO_HISTORY: FileHistory = { updated: new Map(), root: undefined, realPathOf: (file) => file };

// In slug order, as the catalog keeps them.
const GUIDE = [
  subject({ path: 'files/data.bin', format: 'text', skipped: 'binary', title: 'data' }),
  subject({ path: 'files/huge.txt', format: 'text', skipped: 'too-large', title: 'huge' }),
  subject({ path: 'img/a.png', format: 'text', skipped: 'binary', title: 'a' }),
  subject({ path: 'intro.md', title: 'Introduction', summary: 'How to start.' }),
  subject({ path: 'setup/advanced/tuning.md', title: 'Tuning' }),
  subject({ path: 'setup/install.md', title: 'Install', learned: true }),
  subject({ path: 'setup/.wip.md', title: 'Work in progress' }),
  subject({ path: 'zeta.md', title: 'Zeta' }),
];
const NOTES = [subject({ path: 'a/clang++.md', topic: 'notes', title: 'clang++' }, '/repo/kb/notes')];

function routesOf(site: Partial<SiteConfig> = {}, history: FileHistory = NO_HISTORY, sourceRoot = '/repo/kb') {
  const catalog = catalogOf(topic({ id: 'guide', title: 'The Guide', subjects: GUIDE }), topic({ id: 'notes', dir: '/repo/kb/notes', subjects: NOTES }));
  return buildSiteRoutes(catalog, { ...SITE, ...site }, history, sourceRoot);
}

function routeOf(routes: { subjects: SubjectRoute[] }, slug: string, topicId = 'guide'): SubjectRoute {
  const found = routes.subjects.find((r) => r.subject.topic === topicId && r.subject.slug === slug);
  if (!found) throw new Error(`no route for ${topicId}/${slug}`);
  return found;
}

describe('topic pages', () => {
  it('show the tree of listed subjects: folders in order of first subject, counts, anchors; hidden left out', () => {
    const routes = routesOf();
    expect(routes.base).toBe('/');
    expect(routes.topics.map((t) => ({ title: t.title, url: t.url, count: t.count }))).toEqual([
      { title: 'The Guide', url: '/guide/', count: 7 },
      { title: 'notes', url: '/notes/', count: 1 },
    ]);
    expect(routes.topics.map((t) => t.topic.id)).toEqual(['guide', 'notes']);
    expect(routes.topics[0]!.tree).toEqual({
      name: '',
      slug: '',
      anchor: 'subjects',
      count: 7,
      subjects: [
        { title: 'Introduction', slug: 'intro', url: '/guide/intro/', learned: false, media: null },
        { title: 'Zeta', slug: 'zeta', url: '/guide/zeta/', learned: false, media: null },
      ],
      folders: [
        {
          name: 'files',
          slug: 'files',
          anchor: 'folder-files',
          count: 2,
          folders: [],
          subjects: [
            { title: 'data', slug: 'files/data', url: '/guide/files/data/', learned: false, media: 'download' },
            { title: 'huge', slug: 'files/huge', url: '/guide/files/huge/', learned: false, media: 'download' },
          ],
        },
        {
          name: 'img',
          slug: 'img',
          anchor: 'folder-img',
          count: 1,
          folders: [],
          subjects: [{ title: 'a', slug: 'img/a', url: '/guide/img/a/', learned: false, media: 'image' }],
        },
        {
          name: 'setup',
          slug: 'setup',
          anchor: 'folder-setup',
          count: 2,
          folders: [
            {
              name: 'advanced',
              slug: 'setup/advanced',
              anchor: 'folder-setup/advanced',
              count: 1,
              folders: [],
              subjects: [{ title: 'Tuning', slug: 'setup/advanced/tuning', url: '/guide/setup/advanced/tuning/', learned: false, media: null }],
            },
          ],
          subjects: [{ title: 'Install', slug: 'setup/install', url: '/guide/setup/install/', learned: true, media: null }],
        },
      ],
    });
  });

  it('a topic whose only subjects are hidden has an empty tree', () => {
    const catalog = catalogOf(topic({ id: 'guide', subjects: [subject({ path: '.a.md' }), subject({ path: '.b/c.md' })] }));
    const { topics, subjects } = buildSiteRoutes(catalog, SITE, NO_HISTORY, '/repo/kb');
    expect(topics.map((t) => [t.count, t.tree])).toEqual([[0, { name: '', slug: '', anchor: 'subjects', folders: [], subjects: [], count: 0 }]]);
    // Hidden subjects still get their own pages.
    expect(subjects.map((r) => r.url)).toEqual(['/guide/a/', '/guide/b/c/']);
  });
});

describe('subject pages', () => {
  it('every enabled subject has a page, hidden ones included, in catalog order', () => {
    expect(routesOf().subjects.map((r) => r.url)).toEqual([
      '/guide/files/data/',
      '/guide/files/huge/',
      '/guide/img/a/',
      '/guide/intro/',
      '/guide/setup/advanced/tuning/',
      '/guide/setup/install/',
      '/guide/setup/wip/',
      '/guide/zeta/',
      '/notes/a/clang~2B~2B/',
    ]);
  });

  it('a page in a nested folder, whole', () => {
    const route = routeOf(routesOf(), 'setup/advanced/tuning');
    expect(route).toEqual({
      subject: GUIDE[4],
      url: '/guide/setup/advanced/tuning/',
      markdownUrl: '/guide/setup/advanced/tuning.md',
      jsonUrl: '/kb/subjects/guide/setup/advanced/tuning.json',
      rawUrl: null,
      media: null,
      description: undefined,
      breadcrumbs: [
        { label: 'The Guide', url: '/guide/' },
        { label: 'setup', url: '/guide/#folder-setup' },
        { label: 'advanced', url: '/guide/#folder-setup/advanced' },
      ],
      folder: {
        slug: 'setup/advanced',
        url: '/guide/#folder-setup/advanced',
        siblings: [{ label: 'Tuning', url: '/guide/setup/advanced/tuning/', current: true }],
      },
      previous: { label: 'Introduction', url: '/guide/intro/' },
      next: { label: 'Install', url: '/guide/setup/install/' },
      updated: null,
      editUrl: null,
      sourceUrl: null,
    });
  });

  it('a top-level page: one breadcrumb, the top folder, its summary as the page description', () => {
    const route = routeOf(routesOf(), 'intro');
    expect([route.breadcrumbs, route.folder, route.description]).toEqual([
      [{ label: 'The Guide', url: '/guide/' }],
      {
        slug: '',
        url: '/guide/#subjects',
        siblings: [
          { label: 'Introduction', url: '/guide/intro/', current: true },
          { label: 'Zeta', url: '/guide/zeta/', current: false },
        ],
      },
      'How to start.',
    ]);
  });

  it('previous and next skip hidden subjects; the first and last have none', () => {
    const routes = routesOf();
    const nav = (slug: string, topicId = 'guide') => {
      const r = routeOf(routes, slug, topicId);
      return [r.previous?.url ?? null, r.next?.url ?? null];
    };
    expect(nav('files/data')).toEqual([null, '/guide/files/huge/']);
    expect(nav('setup/install')).toEqual(['/guide/setup/advanced/tuning/', '/guide/zeta/']);
    expect(nav('zeta')).toEqual(['/guide/setup/install/', null]);
    // Navigation stays inside the topic: the other topic's only subject has no neighbours.
    expect(nav('a/clang++', 'notes')).toEqual([null, null]);
  });

  it('a hidden subject has no previous, next or folder, and is in no one else’s navigation', () => {
    const routes = routesOf();
    const wip = routeOf(routes, 'setup/wip');
    expect([wip.previous, wip.next, wip.folder]).toEqual([null, null, null]);
    expect(wip.breadcrumbs).toEqual([
      { label: 'The Guide', url: '/guide/' },
      { label: 'setup', url: '/guide/#folder-setup' },
    ]);
    const install = routeOf(routes, 'setup/install');
    expect(install.folder).toEqual({ slug: 'setup', url: '/guide/#folder-setup', siblings: [{ label: 'Install', url: '/guide/setup/install/', current: true }] });
    for (const r of routes.subjects) {
      const urls = [r.previous?.url, r.next?.url, ...(r.folder?.siblings ?? []).map((s) => s.url)];
      expect(urls).not.toContain('/guide/setup/wip/');
    }
  });

  it('an address with special characters: encoded in every URL, the label kept', () => {
    const route = routeOf(routesOf({ repository: 'https://git.example/r' }), 'a/clang++', 'notes');
    expect([route.url, route.markdownUrl, route.jsonUrl, route.breadcrumbs, route.editUrl]).toEqual([
      '/notes/a/clang~2B~2B/',
      '/notes/a/clang~2B~2B.md',
      '/kb/subjects/notes/a/clang~2B~2B.json',
      [
        { label: 'notes', url: '/notes/' },
        { label: 'a', url: '/notes/#folder-a' },
      ],
      'https://git.example/r/edit/main/notes/a/clang%2B%2B.md',
    ]);
  });
});

describe('small folders (SMALL_FOLDER)', () => {
  function bigFolder(listed: number) {
    const names = Array.from({ length: listed }, (_, i) => `big/s${String(i).padStart(2, '0')}.md`);
    const subjects = [...names, 'big/.zz-hidden.md'].map((p) => subject({ path: p }));
    return buildSiteRoutes(catalogOf(topic({ id: 'guide', subjects })), SITE, NO_HISTORY, '/repo/kb');
  }

  it(`is ${SMALL_FOLDER}`, () => {
    expect(SMALL_FOLDER).toBe(25);
  });

  it('a folder of 25 listed subjects (and a hidden one) lists them on each page', () => {
    const routes = bigFolder(25);
    const page = routeOf(routes, 'big/s03');
    expect(page.folder?.siblings).toHaveLength(25);
    expect(page.folder?.siblings?.slice(2, 5)).toEqual([
      { label: 's02', url: '/guide/big/s02/', current: false },
      { label: 's03', url: '/guide/big/s03/', current: true },
      { label: 's04', url: '/guide/big/s04/', current: false },
    ]);
    expect(page.folder?.siblings?.map((s) => s.url)).not.toContain('/guide/big/zz-hidden/');
  });

  it('a folder of 26 listed subjects lists none (the topic page does)', () => {
    const routes = bigFolder(26);
    for (const r of routes.subjects.filter((s) => !s.subject.hidden)) {
      expect(r.folder).toEqual({ slug: 'big', url: '/guide/#folder-big', siblings: null });
    }
    expect(routes.topics[0]!.tree.folders[0]!.subjects).toHaveLength(26);
  });
});

describe('raw files and media', () => {
  it('binary images are images, other binaries and too-large files downloads, all published raw', () => {
    const routes = routesOf();
    const raw = (slug: string) => {
      const r = routeOf(routes, slug);
      return [r.rawUrl, r.media];
    };
    expect(raw('img/a')).toEqual(['/raw/guide/img/a/a.png', 'image']);
    expect(raw('files/data')).toEqual(['/raw/guide/files/data/data.bin', 'download']);
    expect(raw('files/huge')).toEqual(['/raw/guide/files/huge/huge.txt', 'download']);
    expect(raw('intro')).toEqual([null, null]);
  });

  it('an unreadable file is neither published nor offered', () => {
    const s = subject({ path: 'locked.png', skipped: 'unreadable' });
    const [route] = buildSiteRoutes(catalogOf(topic({ id: 'guide', subjects: [s] })), SITE, NO_HISTORY, '/repo/kb').subjects;
    expect([route!.rawUrl, route!.media]).toEqual([null, null]);
  });

  it('a raw file name is percent-encoded in its URL, its address encoded as an address', () => {
    const s = subject({ path: 'img/my pic.PNG', skipped: 'binary' });
    const [route] = buildSiteRoutes(catalogOf(topic({ id: 'guide', subjects: [s] })), SITE, NO_HISTORY, '/repo/kb').subjects;
    expect([route!.url, route!.rawUrl, route!.media]).toEqual(['/guide/img/my~20pic/', '/raw/guide/img/my~20pic/my%20pic.PNG', 'image']);
  });

  it('an SVG is published raw only when HTML is trusted (allow_html)', () => {
    const svg = subject({ path: 'diagram.svg', format: 'code', language: 'xml' });
    const build = (allow_html: boolean) => buildSiteRoutes(catalogOf(topic({ id: 'guide', subjects: [svg] })), { ...SITE, allow_html }, NO_HISTORY, '/repo/kb').subjects[0]!;
    expect([build(false).rawUrl, build(false).media]).toEqual([null, null]);
    expect([build(true).rawUrl, build(true).media]).toEqual(['/raw/guide/diagram/diagram.svg', null]);
  });
});

describe('edit links', () => {
  const edit = (site: Partial<SiteConfig>, history: FileHistory = NO_HISTORY, sourceRoot = '/repo/kb', slug = 'setup/install') =>
    routeOf(routesOf(site, history, sourceRoot), slug).editUrl;

  it('none without a repository', () => {
    expect(routesOf().subjects.map((r) => r.editUrl)).toEqual(Array(9).fill(null));
  });

  it('relative to the source root outside git', () => {
    expect(edit({ repository: 'https://github.com/acme/kb' })).toBe('https://github.com/acme/kb/edit/main/guide/setup/install.md');
  });

  it('relative to the git root when there is one', () => {
    expect(edit({ repository: 'https://github.com/acme/kb' }, { updated: new Map(), root: '/repo', realPathOf: (file: string) => file })).toBe(
      'https://github.com/acme/kb/edit/main/kb/guide/setup/install.md',
    );
  });

  it('a trailing slash on the repository is dropped; the branch is used', () => {
    expect(edit({ repository: 'https://github.com/acme/kb//', branch: 'develop' })).toBe('https://github.com/acme/kb/edit/develop/guide/setup/install.md');
  });

  it('encodes each path segment (spaces, #, non-ASCII) but not the slashes', () => {
    const s = subject({ path: 'my notes/ça #1.md' });
    const [route] = buildSiteRoutes(catalogOf(topic({ id: 'guide', subjects: [s] })), { ...SITE, repository: 'https://github.com/acme/kb' }, NO_HISTORY, '/repo/kb').subjects;
    expect(route!.editUrl).toBe('https://github.com/acme/kb/edit/main/guide/my%20notes/%C3%A7a%20%231.md');
  });
});

describe('last updated', () => {
  it('is the ISO date of the file’s last commit, or null when git does not know it', () => {
    const history: FileHistory = { updated: new Map([[`${DIR}/intro.md`, 1_700_000_000]]), root: '/repo', realPathOf: (file) => file };
    const routes = routesOf({}, history);
    expect(routes.subjects.map((r) => [r.subject.slug, r.updated])).toEqual([
      ['files/data', null],
      ['files/huge', null],
      ['img/a', null],
      ['intro', '2023-11-14T22:13:20.000Z'],
      ['setup/advanced/tuning', null],
      ['setup/install', null],
      ['setup/wip', null],
      ['zeta', null],
      ['a/clang++', null],
    ]);
  });
});

describe('a URL source', () => {
  it('links to its URL instead of the repository, and is dated by its fetch, not by git', () => {
    const links = `${DIR}/links.txt`;
    const s = subject({
      path: 'https://example.com/docs/intro.html',
      slug: 'example.com/docs/intro',
      address: 'example~2Ecom/docs/intro',
      file: links,
      source: { url: 'https://example.com/docs/intro.html', line: 2, fetchedAt: '2026-11-20T10:00:00.000Z' },
    });
    const history: FileHistory = { updated: new Map([[links, 1_700_000_000]]), root: '/repo', realPathOf: (file) => file };
    const [route] = buildSiteRoutes(catalogOf(topic({ id: 'guide', subjects: [s] })), { ...SITE, repository: 'https://github.com/acme/kb' }, history, '/repo/kb').subjects;
    expect([route!.url, route!.updated, route!.editUrl, route!.sourceUrl, route!.rawUrl]).toEqual([
      '/guide/example~2Ecom/docs/intro/',
      '2026-11-20T10:00:00.000Z',
      null,
      'https://example.com/docs/intro.html',
      null,
    ]);
  });
});

describe('[site] base', () => {
  it.each(['/docs', 'docs/', '/docs/'])('%j prefixes every URL with /docs/', (base) => {
    const routes = routesOf({ base });
    expect(routes.base).toBe('/docs/');
    expect(routes.topics.map((t) => t.url)).toEqual(['/docs/guide/', '/docs/notes/']);
    expect(routes.topics[0]!.tree.subjects.map((s) => s.url)).toEqual(['/docs/guide/intro/', '/docs/guide/zeta/']);
    const urls = routes.subjects.flatMap((r) => [
      r.url,
      r.markdownUrl,
      r.jsonUrl,
      r.rawUrl,
      r.previous?.url,
      r.next?.url,
      ...r.breadcrumbs.map((b) => b.url),
      r.folder?.url,
      ...(r.folder?.siblings ?? []).map((s) => s.url),
    ]);
    const defined = urls.filter((u): u is string => u != null);
    expect(defined.filter((u) => !u.startsWith('/docs/'))).toEqual([]);
    expect(routeOf(routes, 'img/a')).toMatchObject({
      url: '/docs/guide/img/a/',
      markdownUrl: '/docs/guide/img/a.md',
      jsonUrl: '/docs/kb/subjects/guide/img/a.json',
      rawUrl: '/docs/raw/guide/img/a/a.png',
      breadcrumbs: [
        { label: 'The Guide', url: '/docs/guide/' },
        { label: 'img', url: '/docs/guide/#folder-img' },
      ],
    });
  });
});

describe('navigation is bounded (property)', () => {
  // Folders of every size: about one run in seven has a folder over SMALL_FOLDER, one in five 20 to 25.
  const segment = fc.constantFrom('a', 'b', '.h', 'c d');
  const folder = fc.oneof(fc.constant<string[]>([]), fc.constant(['a']), fc.array(segment, { minLength: 1, maxLength: 3 }));
  const fileName = fc.integer({ min: 0, max: 60 }).map((n) => `f${n}.md`);
  const filePath = fc.tuple(folder, fileName, fc.integer({ min: 0, max: 9 })).map(([dirs, name, hide]) => [...dirs, hide === 0 ? `.${name}` : name].join('/'));
  const subjectSets = fc.uniqueArray(filePath, { minLength: 1, maxLength: 90, size: 'max', selector: (p) => slugOf(p).slug });

  it('every page links to at most SMALL_FOLDER + depth + 2 subjects and folders; hidden subjects are never linked', () => {
    fc.assert(
      fc.property(subjectSets, (paths) => {
        const subjects = paths.map((p) => subject({ path: p })).sort((x, y) => (x.slug < y.slug ? -1 : x.slug > y.slug ? 1 : 0));
        const routes = buildSiteRoutes(catalogOf(topic({ id: 'guide', subjects })), SITE, NO_HISTORY, '/repo/kb');
        const hiddenUrls = new Set(routes.subjects.filter((r) => r.subject.hidden).map((r) => r.url));
        for (const r of routes.subjects) {
          const depth = r.subject.slug.split('/').length;
          const neighbours = [r.previous, r.next].filter((n) => n !== null);
          const siblings = r.folder?.siblings ?? [];
          expect(siblings.length + neighbours.length + r.breadcrumbs.length).toBeLessThanOrEqual(SMALL_FOLDER + depth + 2);
          expect(r.breadcrumbs).toHaveLength(depth);
          if (r.subject.hidden) {
            expect([r.previous, r.next, r.folder]).toEqual([null, null, null]);
          } else {
            for (const link of [...neighbours, ...siblings]) expect(hiddenUrls.has(link.url)).toBe(false);
            expect(siblings.filter((s) => s.current).map((s) => s.url)).toEqual(siblings.length === 0 ? [] : [r.url]);
          }
        }
        expect(routes.topics[0]!.count).toBe(subjects.filter((s) => !s.hidden).length);
      }),
    );
  });
});
