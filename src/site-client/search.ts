/**
 * Search, on every page: the dialog that `/`, Ctrl-K (⌘K) or the header's search box open, with
 * results as you type; and, on the search page, the same results under its form. Both read the
 * Pagefind index written next to the site, loaded the first time either needs it
 * (content/guide/the-site.md, "Search").
 */

interface PagefindData {
  url: string;
  excerpt: string;
  meta: Record<string, string | undefined>;
}
interface PagefindResult {
  data(): Promise<PagefindData>;
}
interface Pagefind {
  options(options: Record<string, unknown>): Promise<void>;
  mergeIndex(indexPath: string, options?: Record<string, unknown>): Promise<void>;
  search(query: string, options?: { filters?: Record<string, string> }): Promise<{ results: PagefindResult[] } | null>;
}

/** Results the dialog shows; the search page shows more. */
const DIALOG_SHOWN = 10;
const PAGE_SHOWN = 20;
/** How long typing must pause before a search runs, in milliseconds. */
const TYPING_PAUSE = 120;

let pagefind: Promise<Pagefind> | undefined;

/** Pagefind with every shard of the site's index merged in, loaded once per page. */
function loadPagefind(base: string): Promise<Pagefind> {
  pagefind ??= (async () => {
    // The index comes in shards (src/build/search-index.ts): the first one's script loads, the others merge in.
    const response = await fetch(`${base}pagefind/shards.json`);
    if (!response.ok) throw new Error(`no search index (HTTP ${response.status})`);
    const { shards } = (await response.json()) as { shards: string[] };
    const first = `${base}pagefind/${shards[0]}`;
    const script = `${first}pagefind.js`;
    // A plain variable: Vite leaves the import to the browser (a template literal would be rewritten).
    const module = (await import(/* @vite-ignore */ script)) as Pagefind;
    await module.options({ baseUrl: base, bundlePath: first });
    // All at once: each shard's first files are two requests, which must not wait for the shard before.
    await Promise.all(shards.slice(1).map((shard) => module.mergeIndex(`${base}pagefind/${shard}`, { baseUrl: base })));
    return module;
  })();
  // A failed load may be retried by the next search.
  pagefind.catch(() => (pagefind = undefined));
  return pagefind;
}

/** A search's outcome: the first results' data and how many there were in all. */
interface Found {
  query: string;
  shown: PagefindData[];
  count: number;
}

/** Searches `query` (in `topic` when given), with the data of the first `shown` results. */
async function searchFor(base: string, query: string, topic: string, shown: number): Promise<Found> {
  const index = await loadPagefind(base);
  const found = await index.search(query, topic ? { filters: { topic } } : {});
  const results = found?.results ?? [];
  return { query, shown: await Promise.all(results.slice(0, shown).map((r) => r.data())), count: results.length };
}

/** The status line of a search: how many results, or that there are none. */
function describeFound({ query, shown, count }: Found): string {
  if (count === 0) return `No results for “${query}”.`;
  const more = count > shown.length ? `, the first ${shown.length} shown` : '';
  return `${count} ${count === 1 ? 'result' : 'results'} for “${query}”${more}.`;
}

/**
 * A result's topic and path (`handbook › guides/deploy`): what tells apart one file listed under
 * two topics. Pages indexed before it existed fall back to their URL.
 */
function placeOf(data: PagefindData): string {
  const { topic_id: topic, path } = data.meta;
  return topic && path !== undefined ? `${topic} › ${path}` : data.url;
}

/**
 * Pagefind's excerpt as DOM nodes: its text, with `<mark>` around the matches. Rebuilt from text
 * rather than assigned as HTML, so that nothing of an indexed page can become markup here.
 */
function excerptNodes(excerpt: string): Node[] {
  const template = document.createElement('template');
  template.innerHTML = excerpt;
  return [...template.content.childNodes].map((node) => {
    if (node.nodeName !== 'MARK') return document.createTextNode(node.textContent ?? '');
    const mark = document.createElement('mark');
    mark.textContent = node.textContent;
    return mark;
  });
}

/** An element of `tag` with `className` holding `children`. */
function element(tag: string, className: string, ...children: (Node | string)[]): HTMLElement {
  const made = document.createElement(tag);
  made.className = className;
  made.append(...children);
  return made;
}

/** The three lines of a result: title, topic › path, and the excerpt with the matches marked. */
function hitLines(data: PagefindData, tag: 'span' | 'p'): HTMLElement[] {
  return [
    element('span', 'search-hit-title', data.meta['title'] ?? data.url),
    element(tag, 'search-hit-place', placeOf(data)),
    element(tag, 'search-hit-excerpt', ...excerptNodes(data.excerpt)),
  ];
}

/**
 * Wires the search dialog: opened by `/` (outside text fields), Ctrl-K or ⌘K (anywhere), and by
 * clicking or typing into the header's search box (a plain form to the search page without
 * JavaScript). Results follow the typing; arrows choose, Enter opens, Escape closes and gives the
 * focus back to where it was.
 */
export function setUpSearchDialog(): void {
  const dialog = document.getElementById('search-dialog') as HTMLDialogElement | null;
  if (!dialog) return;
  const input = dialog.querySelector<HTMLInputElement>('#search-dialog-input')!;
  const topic = dialog.querySelector<HTMLSelectElement>('#search-dialog-topic');
  const status = dialog.querySelector<HTMLElement>('.search-dialog-status')!;
  const list = dialog.querySelector<HTMLElement>('#search-dialog-results')!;
  const pageLink = dialog.querySelector<HTMLAnchorElement>('.search-dialog-page')!;
  const header = document.getElementById('site-search-input') as HTMLInputElement | null;
  const base = dialog.dataset['base'] ?? '/';
  const searchPage = pageLink.getAttribute('href') ?? `${base}search/`;
  let returnTo: HTMLElement | null = null;
  let generation = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const options = (): HTMLAnchorElement[] => [...list.querySelectorAll<HTMLAnchorElement>('[role="option"]')];
  const select = (index: number): void => {
    const all = options();
    all.forEach((option, i) => option.setAttribute('aria-selected', String(i === index)));
    const chosen = all[index];
    if (chosen) {
      input.setAttribute('aria-activedescendant', chosen.id);
      chosen.scrollIntoView({ block: 'nearest' });
    } else {
      input.removeAttribute('aria-activedescendant');
    }
  };
  const selected = (): number => options().findIndex((option) => option.getAttribute('aria-selected') === 'true');

  const show = (found: Found | null, message: string): void => {
    const hits = (found?.shown ?? []).map((data, i) => {
      const option = element('a', 'search-hit', ...hitLines(data, 'span')) as HTMLAnchorElement;
      option.href = data.url;
      option.id = `search-dialog-hit-${i}`;
      option.setAttribute('role', 'option');
      option.tabIndex = -1;
      const item = element('li', '', option);
      item.setAttribute('role', 'none');
      return item;
    });
    list.replaceChildren(...hits);
    list.hidden = hits.length === 0;
    input.setAttribute('aria-expanded', String(hits.length > 0));
    status.textContent = message;
    select(hits.length > 0 ? 0 : -1);
  };

  const run = async (): Promise<void> => {
    const query = input.value.trim();
    const current = ++generation;
    const params = new URLSearchParams();
    if (query) params.set('q', query);
    if (topic?.value) params.set('topic', topic.value);
    pageLink.href = `${searchPage}${params.size ? `?${params}` : ''}`;
    if (!query) {
      show(null, '');
      return;
    }
    try {
      const found = await searchFor(base, query, topic?.value ?? '', DIALOG_SHOWN);
      if (current === generation) show(found, describeFound(found));
    } catch (error) {
      if (current === generation) show(null, `Search is not available: ${(error as Error).message}`);
    }
  };
  const runSoon = (): void => {
    clearTimeout(timer);
    timer = setTimeout(() => void run(), TYPING_PAUSE);
  };

  const open = (text?: string): void => {
    if (!dialog.open) {
      const active = document.activeElement;
      returnTo = active instanceof HTMLElement && active !== document.body ? active : null;
      dialog.showModal();
    }
    input.focus();
    if (text === undefined) {
      input.select();
    } else {
      // Typing goes on where it started: the caret after the words, none of them selected.
      input.value = text;
      input.setSelectionRange(text.length, text.length);
    }
    // Pagefind's files load when the dialog first opens, not with the page.
    loadPagefind(base).catch(() => undefined);
    void run();
  };
  const close = (): void => {
    if (dialog.open) dialog.close();
  };
  dialog.addEventListener('close', () => {
    clearTimeout(timer);
    const target = returnTo;
    returnTo = null;
    if (target?.isConnected) target.focus();
  });

  document.addEventListener('keydown', (event) => {
    if (event.key.toLowerCase() === 'k' && (event.ctrlKey || event.metaKey) && !event.altKey && !event.shiftKey) {
      event.preventDefault();
      open();
      return;
    }
    if (event.key !== '/' || event.ctrlKey || event.metaKey || event.altKey || dialog.open) return;
    const target = event.target as HTMLElement | null;
    if (target && (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName))) return;
    event.preventDefault();
    open();
  });
  header?.addEventListener('click', () => open(header.value ? header.value : undefined));
  header?.addEventListener('input', () => {
    const text = header.value;
    header.value = '';
    open(text);
  });

  input.addEventListener('input', runSoon);
  topic?.addEventListener('change', () => void run());
  dialog.addEventListener('keydown', (event) => {
    if (event.key === 'Escape') {
      // Handled here: a search field would otherwise spend the first Escape on clearing itself.
      event.preventDefault();
      close();
    } else if ((event.key === 'ArrowDown' || event.key === 'ArrowUp') && event.target === input) {
      event.preventDefault();
      const count = options().length;
      if (count > 0) select((selected() + (event.key === 'ArrowDown' ? 1 : count - 1)) % count);
    } else if (event.key === 'Enter' && event.target === input) {
      event.preventDefault();
      const chosen = options()[selected()];
      if (chosen) location.assign(chosen.href);
      else if (input.value.trim()) location.assign(pageLink.href);
    } else if (event.key === 'Tab') {
      trapFocus(dialog, event);
    }
  });
  // A click on the backdrop (the dialog element itself, outside its panel) closes it.
  dialog.addEventListener('click', (event) => {
    if (event.target === dialog) close();
  });
  dialog.querySelector('.search-dialog-close')?.addEventListener('click', close);
}

/** Keeps Tab and Shift-Tab inside `dialog`: from its last control to its first, and back. */
function trapFocus(dialog: HTMLElement, event: KeyboardEvent): void {
  const controls = [...dialog.querySelectorAll<HTMLElement>('input, select, button, a[href]')].filter((c) => c.tabIndex >= 0 && c.getClientRects().length > 0);
  const first = controls[0];
  const last = controls.at(-1);
  if (!first || !last) return;
  if (event.shiftKey && document.activeElement === first) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && document.activeElement === last) {
    event.preventDefault();
    first.focus();
  }
}

/** Wires the search page's form, when this page is the search page: results follow the query, and the URL keeps it. */
export function setUpSearchPage(): void {
  const form = document.getElementById('search-form') as HTMLFormElement | null;
  if (!form) return;
  const input = document.getElementById('search-query') as HTMLInputElement;
  const topic = document.getElementById('search-topic') as HTMLSelectElement;
  const status = document.getElementById('search-status')!;
  const list = document.getElementById('search-results')!;
  const base = form.dataset['base'] ?? '/';
  const params = new URLSearchParams(location.search);
  input.value = params.get('q') ?? '';
  topic.value = params.get('topic') ?? '';
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
      const found = await searchFor(base, query, topic.value, PAGE_SHOWN);
      if (current !== generation) return;
      list.replaceChildren(
        ...found.shown.map((data) => {
          const [title, ...lines] = hitLines(data, 'p');
          const link = document.createElement('a');
          link.href = data.url;
          link.append(title!);
          return element('li', 'search-hit', link, ...lines);
        }),
      );
      status.textContent = describeFound(found);
    } catch (error) {
      if (current === generation) status.textContent = `Search is not available: ${(error as Error).message}`;
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

setUpSearchDialog();
setUpSearchPage();
