/**
 * Incremental builds (src/astro/build-plan.ts): the keys of a build's outputs, and what a build
 * does given the previous build's keys. Manifests for planBuild are written by hand; buildManifest
 * gets a site data object with only the parts it reads (catalog, routes, site, link topics, raw URLs).
 */
import { describe, expect, it } from 'vitest';
import { buildManifest, planBuild, type BuildManifest } from '../../src/build/plan.ts';
import { buildSiteRoutes } from '../../src/build/route-data.ts';
import type { SiteData } from '../../src/build/site-data.ts';
import { staticText, type StaticFile } from '../../src/build/static-file.ts';
import { listStaticFiles } from '../../src/build/endpoints.ts';
import { addressOf, slugOf, type Catalog, type CatalogSubject, type SiteConfig } from '../../src/kb/index.ts';
import { SITE_DEFAULTS } from '../../src/kb/config/defaults.ts';

function manifest(fields: Partial<BuildManifest> = {}): BuildManifest {
  return {
    version: 1,
    source: 'src1',
    pages: { '/t/': 'p0', '/t/a/': 'p1', '/t/b/': 'p2' },
    files: { 't/a.md': 'f1', 't/b.md': 'f2', 'raw/t/img/a.png': 'f3' },
    ...fields,
  };
}

describe('planBuild', () => {
  it('no previous build: full', () => {
    expect(planBuild(undefined, manifest())).toEqual({ mode: 'full' });
  });

  it('another source (code, settings) or manifest version: full', () => {
    expect(planBuild(manifest({ source: 'src0' }), manifest())).toEqual({ mode: 'full' });
    expect(planBuild({ ...manifest(), version: 0 } as unknown as BuildManifest, manifest())).toEqual({ mode: 'full' });
  });

  it('identical: none', () => {
    expect(planBuild(manifest(), manifest())).toEqual({ mode: 'none' });
  });

  it('identical without copied files: none', () => {
    const m = manifest({ files: { 't/a.md': 'f1' } });
    expect(planBuild(m, structuredClone(m))).toEqual({ mode: 'none' });
  });

  it('one page key changed: just that page', () => {
    const current = manifest({ pages: { '/t/': 'p0', '/t/a/': 'p1-new', '/t/b/': 'p2' } });
    expect(planBuild(manifest(), current)).toEqual({
      mode: 'incremental',
      pages: new Set(['/t/a/']),
      removedPages: [],
      files: new Set(),
      removedFiles: [],
    });
  });

  it('a new page: built', () => {
    const current = manifest({ pages: { ...manifest().pages, '/t/c/': 'p3' } });
    expect(planBuild(manifest(), current)).toEqual({
      mode: 'incremental',
      pages: new Set(['/t/c/']),
      removedPages: [],
      files: new Set(),
      removedFiles: [],
    });
  });

  it('one file key changed: that file, no page', () => {
    const current = manifest({ files: { ...manifest().files, 't/b.md': 'f2-new' } });
    expect(planBuild(manifest(), current)).toEqual({
      mode: 'incremental',
      pages: new Set(),
      removedPages: [],
      files: new Set(['t/b.md']),
      removedFiles: [],
    });
  });

  it('removed pages and files are listed', () => {
    const current = manifest({ pages: { '/t/': 'p0', '/t/a/': 'p1' }, files: { 't/a.md': 'f1' } });
    expect(planBuild(manifest(), current)).toEqual({
      mode: 'incremental',
      pages: new Set(),
      removedPages: ['/t/b/'],
      files: new Set(),
      removedFiles: ['t/b.md', 'raw/t/img/a.png'],
    });
  });

  it('a removed file alone is a change', () => {
    const current = manifest({ files: { 't/a.md': 'f1', 't/b.md': 'f2' } });
    expect(planBuild(manifest(), current)).toEqual({ mode: 'incremental', pages: new Set(), removedPages: [], files: new Set(), removedFiles: ['raw/t/img/a.png'] });
  });

  it('a copied file whose bytes changed is applied again, alone', () => {
    const current = manifest({ files: { ...manifest().files, 'raw/t/img/a.png': 'f3-new' } });
    expect(planBuild(manifest(), current)).toEqual({ mode: 'incremental', pages: new Set(), removedPages: [], files: new Set(['raw/t/img/a.png']), removedFiles: [] });
  });
});

const DIR = '/kb/guide';
/** The site of a kb.toml without a [site] table. */
const SITE: SiteConfig = { ...SITE_DEFAULTS };

function subject(path: string, fields: Partial<CatalogSubject> = {}): CatalogSubject {
  const { slug, hidden } = slugOf(path);
  return {
    topic: 'guide',
    slug,
    address: addressOf(slug),
    path,
    file: `${DIR}/${path}`,
    hidden,
    learned: false,
    format: 'markdown',
    language: null,
    skipped: null,
    title: slug,
    summary: '',
    keywords: [],
    headings: [],
    confidence: 1,
    learning: null,
    source: null,
    frontMatter: {},
    bytes: 10,
    sha256: `sha-of-${slug}`,
    tokens: 3,
    content: `content of ${slug}`,
    ...fields,
  };
}

/** The parts of SiteData that buildManifest reads, for a topic `guide` holding `subjects`. */
function siteData(subjects: CatalogSubject[], site: SiteConfig = SITE, description?: string): SiteData {
  const catalog: Catalog = {
    topics: [{ id: 'guide', title: 'Guide', introduction: undefined, description, dir: DIR, subjects, tokens: 0, listing: '' }],
    knowledge: { prompt: null, tool: null, tokens: 0, topics: [], indexBudget: null },
    profiles: new Map(),
  };
  const routes = buildSiteRoutes(catalog, site, { updated: new Map(), root: undefined, realPathOf: (file) => file }, '/kb');
  const rawUrls = new Map(routes.subjects.filter((r) => r.rawUrl !== null).map((r) => [r.subject.file, r.rawUrl!]));
  return { site, catalog, routes, linkTopics: [{ id: 'guide', dir: DIR }], rawUrls, siteFiles: [] } as Partial<SiteData> as SiteData;
}

const FILES: StaticFile[] = [
  { path: 'guide/a.md', body: { text: 'content of a' } },
  { path: 'raw/guide/img/a/a.png', body: { copy: `${DIR}/img/a.png` } },
];

/** Subjects `a`, `b`, `c` at the top of the topic, then `big/s00` … in a folder too large to list. */
function subjects(big = 30): CatalogSubject[] {
  return [subject('a.md'), subject('b.md'), ...Array.from({ length: big }, (_, i) => subject(`big/s${String(i).padStart(2, '0')}.md`)), subject('c.md')];
}

/** Page URLs whose keys differ between two manifests (added and removed included). */
function changedPages(before: BuildManifest, after: BuildManifest): string[] {
  const urls = new Set([...Object.keys(before.pages), ...Object.keys(after.pages)]);
  return [...urls].filter((url) => before.pages[url] !== after.pages[url]).sort();
}

describe('buildManifest', () => {
  it('keys every subject page, topic page and static file; copied files by their bytes', () => {
    const m = buildManifest(siteData(subjects(2)), 'code', FILES);
    expect(m.version).toBe(1);
    expect(Object.keys(m.pages)).toEqual(['/guide/a/', '/guide/b/', '/guide/big/s00/', '/guide/big/s01/', '/guide/c/', '/guide/']);
    // The copied file does not exist here: its key says so (and changes when it appears).
    expect(m.files).toEqual({ 'guide/a.md': expect.stringMatching(/^[0-9a-f]{40}$/), 'raw/guide/img/a/a.png': 'unreadable' });
  });

  it('is deterministic', () => {
    expect(buildManifest(siteData(subjects()), 'code', FILES)).toEqual(buildManifest(siteData(subjects()), 'code', FILES));
  });

  it('a planned rebuild of the same data is none', () => {
    expect(planBuild(buildManifest(siteData(subjects()), 'code', FILES), buildManifest(siteData(subjects()), 'code', FILES))).toEqual({ mode: 'none' });
  });

  it('the code key, the site settings and the topic folders change the source key', () => {
    const base = buildManifest(siteData(subjects()), 'code', FILES);
    expect(buildManifest(siteData(subjects()), 'code2', FILES).source).not.toBe(base.source);
    expect(buildManifest(siteData(subjects(), { ...SITE, title: 'Other' }), 'code', FILES).source).not.toBe(base.source);
    const moved = siteData(subjects());
    moved.linkTopics = [{ id: 'guide', dir: '/elsewhere/guide' }];
    expect(buildManifest(moved, 'code', FILES).source).not.toBe(base.source);
  });

  it('a newly published file (an image pages may show) changes the source key: a full build', () => {
    const before = buildManifest(siteData(subjects()), 'code', FILES);
    const withImage = [...subjects(), subject('img/a.png', { skipped: 'binary', format: 'text' })];
    expect(buildManifest(siteData(withImage), 'code', FILES).source).not.toBe(before.source);
    expect(planBuild(before, buildManifest(siteData(withImage), 'code', FILES))).toEqual({ mode: 'full' });
  });

  it('a text file’s key follows its text', () => {
    const before = buildManifest(siteData(subjects()), 'code', FILES);
    const after = buildManifest(siteData(subjects()), 'code', [{ path: 'guide/a.md', body: { text: 'new' } }, FILES[1]!]);
    expect([after.files['guide/a.md'] === before.files['guide/a.md'], after.files['raw/guide/img/a/a.png'] === before.files['raw/guide/img/a/a.png']]).toEqual([false, true]);
  });

  it('content is covered by its sha256: the same sha256 and no other change keeps every key', () => {
    const before = buildManifest(siteData(subjects()), 'code', FILES);
    const same = subjects().map((s) => (s.slug === 'b' ? { ...s, content: 'other text, same hash' } : s));
    expect(changedPages(before, buildManifest(siteData(same), 'code', FILES))).toEqual([]);
  });

  it('a new sha256 changes only that page', () => {
    const before = buildManifest(siteData(subjects()), 'code', FILES);
    const edited = subjects().map((s) => (s.slug === 'big/s10' ? { ...s, sha256: 'new' } : s));
    expect(changedPages(before, buildManifest(siteData(edited), 'code', FILES))).toEqual(['/guide/big/s10/']);
  });

  it('a new title changes the page, its neighbours and the topic page, not the rest of a large folder', () => {
    const before = buildManifest(siteData(subjects()), 'code', FILES);
    const renamed = subjects().map((s) => (s.slug === 'big/s10' ? { ...s, title: 'Ten' } : s));
    expect(changedPages(before, buildManifest(siteData(renamed), 'code', FILES))).toEqual(['/guide/', '/guide/big/s09/', '/guide/big/s10/', '/guide/big/s11/']);
  });

  it('a new title in a small folder changes every page of that folder (they list it)', () => {
    const before = buildManifest(siteData(subjects()), 'code', FILES);
    const renamed = subjects().map((s) => (s.slug === 'a' ? { ...s, title: 'A' } : s));
    expect(changedPages(before, buildManifest(siteData(renamed), 'code', FILES))).toEqual(['/guide/', '/guide/a/', '/guide/b/', '/guide/c/']);
  });

  it('adding a subject to a large folder changes only it, its neighbours and the topic page', () => {
    const before = buildManifest(siteData(subjects()), 'code', FILES);
    const added = subjects();
    added.splice(13, 0, subject('big/s10a.md'));
    expect(changedPages(before, buildManifest(siteData(added), 'code', FILES))).toEqual(['/guide/', '/guide/big/s10/', '/guide/big/s10a/', '/guide/big/s11/']);
  });

  it('a hidden subject’s edit changes only its own page', () => {
    const withHidden = [...subjects(), subject('.secret.md')];
    const before = buildManifest(siteData(withHidden), 'code', FILES);
    const edited = withHidden.map((s) => (s.slug === 'secret' ? { ...s, sha256: 'new', title: 'New' } : s));
    expect(changedPages(before, buildManifest(siteData(edited), 'code', FILES))).toEqual(['/guide/secret/']);
  });

  it('the topic description changes only the topic page', () => {
    const before = buildManifest(siteData(subjects()), 'code', FILES);
    expect(changedPages(before, buildManifest(siteData(subjects(), SITE, 'About the guide.'), 'code', FILES))).toEqual(['/guide/']);
  });

  it('the absolute file path of a subject is not part of its page key', () => {
    const before = buildManifest(siteData(subjects()), 'code', FILES);
    const moved = subjects().map((s) => ({ ...s, file: `/moved${s.file}` }));
    expect(changedPages(before, buildManifest(siteData(moved), 'code', FILES))).toEqual([]);
  });
});

describe('the keys of a subject’s files', () => {
  const filesOf = (fields: Partial<CatalogSubject>) => listStaticFiles(siteData([subject('a.md', fields)]));
  const jsonOf = (fields: Partial<CatalogSubject>) => filesOf(fields).find((f) => f.path === 'kb/subjects/guide/a.json')!;

  it('changes the JSON file’s key exactly when its bytes change, without making the bytes', () => {
    const variants: Partial<CatalogSubject>[] = [
      {},
      { title: 'Other' },
      { summary: 'A summary.' },
      { keywords: ['word'] },
      { tokens: 4 },
      { content: 'other content', sha256: 'sha-other' },
      { learned: true },
      { headings: ['Usage'] },
    ];
    const files = variants.map(jsonOf);
    expect(files.every((f) => 'make' in f.body && f.key !== undefined)).toBe(true);
    const texts = files.map((f) => staticText(f.body as { make: () => string }));
    for (let i = 0; i < files.length; i++) {
      for (let j = 0; j < files.length; j++) expect(files[i]!.key === files[j]!.key, `${i} ${j}`).toBe(texts[i] === texts[j]);
    }
    expect(jsonOf({}).key).toBe(files[0]!.key);
  });

  it('keys the markdown twin by its content’s sha256', () => {
    const twin = filesOf({}).find((f) => f.path === 'guide/a.md')!;
    expect(twin).toEqual({ path: 'guide/a.md', body: { text: 'content of a' }, key: 'sha256:sha-of-a' });
  });
});
