/** The search page: queries the Pagefind index written next to the site, with a topic filter. */

interface PagefindResult {
  data(): Promise<{ url: string; excerpt: string; meta: Record<string, string> }>;
}
interface Pagefind {
  options(options: Record<string, unknown>): Promise<void>;
  mergeIndex(indexPath: string, options?: Record<string, unknown>): Promise<void>;
  search(query: string, options?: { filters?: Record<string, string> }): Promise<{ results: PagefindResult[] }>;
}

const SHOWN = 20;

/** Wires the search form: results follow the query as it is typed, and the URL keeps it. */
export function setUpSearch(): void {
  const form = document.getElementById('search-form') as HTMLFormElement;
  const input = document.getElementById('search-query') as HTMLInputElement;
  const topic = document.getElementById('search-topic') as HTMLSelectElement;
  const status = document.getElementById('search-status')!;
  const list = document.getElementById('search-results')!;
  const base = form.dataset['base'] ?? '/';
  const params = new URLSearchParams(location.search);
  input.value = params.get('q') ?? '';
  topic.value = params.get('topic') ?? '';
  let pagefind: Promise<Pagefind> | undefined;
  const load = (): Promise<Pagefind> => {
    pagefind ??= (async () => {
      // The index comes in shards (see src/cli/search-index.ts): the first one's script loads, the others merge in.
      const response = await fetch(`${base}pagefind/shards.json`);
      if (!response.ok) throw new Error(`no search index (HTTP ${response.status})`);
      const { shards } = (await response.json()) as { shards: string[] };
      const first = `${base}pagefind/${shards[0]}`;
      const script = `${first}pagefind.js`;
      // A plain variable: Vite leaves the import to the browser (a template literal would be rewritten).
      const module = (await import(/* @vite-ignore */ script)) as Pagefind;
      await module.options({ baseUrl: base, bundlePath: first });
      for (const shard of shards.slice(1)) await module.mergeIndex(`${base}pagefind/${shard}`, { baseUrl: base });
      return module;
    })();
    return pagefind;
  };
  let generation = 0;
  const run = async (): Promise<void> => {
    const query = input.value.trim();
    const current = ++generation;
    const next = new URLSearchParams();
    if (query) next.set('q', query);
    if (topic.value) next.set('topic', topic.value);
    history.replaceState(null, '', `${location.pathname}${next.size ? `?${next}` : ''}`);
    if (!query) {
      list.replaceChildren();
      status.textContent = '';
      return;
    }
    try {
      const index = await load();
      const found = await index.search(query, topic.value ? { filters: { topic: topic.value } } : {});
      const shown = await Promise.all(found.results.slice(0, SHOWN).map((r) => r.data()));
      if (current !== generation) return;
      list.replaceChildren(
        ...shown.map((result) => {
          const item = document.createElement('li');
          const link = document.createElement('a');
          link.href = result.url;
          link.textContent = result.meta['title'] ?? result.url;
          const excerpt = document.createElement('p');
          // Pagefind's excerpt is escaped text with <mark> around the matches.
          excerpt.innerHTML = result.excerpt;
          item.append(link, excerpt);
          return item;
        }),
      );
      const count = found.results.length;
      status.textContent =
        count === 0 ? `No results for “${query}”.` : `${count} ${count === 1 ? 'result' : 'results'} for “${query}”${count > SHOWN ? `, the first ${SHOWN} shown` : ''}.`;
    } catch (error) {
      status.textContent = `Search is not available: ${(error as Error).message}`;
    }
  };
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void run();
  });
  input.addEventListener('input', () => void run());
  topic.addEventListener('change', () => void run());
  void run();
}

setUpSearch();
