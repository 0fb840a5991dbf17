/**
 * The topic sidebar of subject pages (content/guide/the-site.md, "The topic sidebar"): the topic's
 * tree, loaded once per browser session from `/kb/nav/<topic>.json`, with the current page
 * revealed; only the rows in view are in the document, so a topic of thousands of subjects stays
 * fast. A WAI-ARIA tree: arrows, Home, End, Enter and Space. On phones it lives in a drawer behind
 * the header's menu button, and the table of contents folds away. Runs as it loads.
 */

/** One entry of a nav file: a folder or a subject (src/kb/publish/topic-nav.ts). */
export interface NavEntry {
  folder?: string;
  count?: number;
  title?: string;
  address?: string;
  depth: number;
}

/** A topic's nav file, `/kb/nav/<topic>.json`. */
export interface NavFile {
  version: number;
  topic: string;
  title: string;
  url: string;
  entries: NavEntry[];
}

/** The entries of a nav file with what walking the tree needs, computed once. */
export interface NavIndex {
  entries: NavEntry[];
  /** For each entry, the index after the last entry inside it (the next one, for a subject). */
  end: Int32Array;
  /** For each entry, the index of its folder, or -1 at the top. */
  parent: Int32Array;
  /** For each entry, its position among its folder's entries (from 1) and how many they are. */
  position: Int32Array;
  size: Int32Array;
  /** For each folder entry, its path (`guides/deep`); `''` for subjects. */
  paths: string[];
}

/** The nav file format this script reads. */
const NAV_VERSION = 1;
/** Rows rendered beyond each edge of the view, so that scrolling shows no blank rows. */
const OVERSCAN = 12;
const PHONE = '(max-width: 50rem)';

/** Indexes the entries of a nav file (reading order, each folder before what it holds). */
export function indexNav(entries: NavEntry[]): NavIndex {
  const n = entries.length;
  const end = new Int32Array(n);
  const parent = new Int32Array(n);
  const position = new Int32Array(n);
  const size = new Int32Array(n);
  const paths: string[] = new Array<string>(n);
  const open: number[] = [];
  const children = new Map<number, number[]>([[-1, []]]);
  for (let i = 0; i < n; i++) {
    const entry = entries[i]!;
    while (open.length > entry.depth) end[open.pop()!] = i;
    const up = open.length > 0 ? open[open.length - 1]! : -1;
    parent[i] = up;
    children.get(up)!.push(i);
    if (entry.folder !== undefined) {
      paths[i] = up === -1 ? entry.folder : `${paths[up]}/${entry.folder}`;
      open.push(i);
      children.set(i, []);
    } else {
      paths[i] = '';
      end[i] = i + 1;
    }
  }
  for (const folder of open) end[folder] = n;
  for (const members of children.values()) {
    members.forEach((member, k) => {
      position[member] = k + 1;
      size[member] = members.length;
    });
  }
  return { entries, end, parent, position, size, paths };
}

/** The entries shown when the folders of `expanded` (by path) are open: indexes in reading order. */
export function visibleRows(index: NavIndex, expanded: ReadonlySet<string>): number[] {
  const rows: number[] = [];
  for (let i = 0; i < index.entries.length;) {
    rows.push(i);
    const entry = index.entries[i]!;
    i = entry.folder !== undefined && !expanded.has(index.paths[i]!) ? index.end[i]! : i + 1;
  }
  return rows;
}

/** The paths of the folders that hold entry `i`, outermost first. */
export function folderPathsOf(index: NavIndex, i: number): string[] {
  const paths: string[] = [];
  for (let up = index.parent[i]!; up !== -1; up = index.parent[up]!) paths.unshift(index.paths[up]!);
  return paths;
}

/** The index of the subject at `address`, or -1. */
export function findSubject(index: NavIndex, address: string): number {
  return index.entries.findIndex((entry) => entry.address === address);
}

/**
 * Whether a kept copy of the nav file agrees with what the page itself shows: the page's
 * subject with its title, and its previous and next subjects (`null` when the page has none).
 * Pages carry no key of the whole tree (one title changing would change every page of the
 * topic), so a page that disagrees is how a newer build is noticed.
 */
export function agreesWithPage(index: NavIndex, page: { address: string; title: string; previous: string | null; next: string | null }): boolean {
  const at = findSubject(index, page.address);
  if (at === -1 || index.entries[at]!.title !== page.title) return false;
  const neighbour = (step: number): string | null => {
    for (let i = at + step; i >= 0 && i < index.entries.length; i += step) {
      const address = index.entries[i]!.address;
      if (address !== undefined) return address;
    }
    return null;
  };
  return neighbour(-1) === page.previous && neighbour(1) === page.next;
}

/** Reads sessionStorage, which a private window may refuse. */
function stored(key: string): string | null {
  try {
    return sessionStorage.getItem(key);
  } catch {
    return null;
  }
}

function store(key: string, value: string): void {
  try {
    sessionStorage.setItem(key, value);
  } catch {
    // Full or refused: the next page fetches the tree again (from the HTTP cache, mostly).
  }
}

/** The nav file at `url`: the copy this tab kept, when it agrees with the page, else fetched. */
async function loadNav(url: string, agrees: (index: NavIndex) => boolean): Promise<NavIndex> {
  const key = `syllabus-nav:${url}`;
  const kept = stored(key);
  if (kept !== null) {
    try {
      const nav = JSON.parse(kept) as NavFile;
      if (nav.version === NAV_VERSION) {
        const index = indexNav(nav.entries);
        if (agrees(index)) return index;
      }
    } catch {
      // A damaged copy: fetch it again.
    }
  }
  // A copy that disagrees comes from an older build: ask the server, not the HTTP cache.
  const response = await fetch(url, kept === null ? {} : { cache: 'no-cache' });
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  const text = await response.text();
  const nav = JSON.parse(text) as NavFile;
  if (nav.version !== NAV_VERSION) throw new Error(`nav format ${nav.version}`);
  store(key, text);
  return indexNav(nav.entries);
}

/** The address of a subject page URL of the topic, or null. */
function addressOfLink(link: HTMLAnchorElement | null, topicUrl: string): string | null {
  if (!link) return null;
  const path = decodeURIComponent(new URL(link.href).pathname);
  return path.startsWith(topicUrl) && path.endsWith('/') ? path.slice(topicUrl.length, -1) : null;
}

/** Draws the tree in `host`, with the subject at `current` revealed. */
function renderTree(host: HTMLElement, index: NavIndex, current: string, topicUrl: string, label: string, openKey: string): void {
  const tree = document.createElement('div');
  tree.className = 'nav-tree';
  tree.setAttribute('role', 'tree');
  tree.setAttribute('aria-label', label);
  const spacer = document.createElement('div');
  spacer.className = 'nav-spacer';
  spacer.setAttribute('role', 'none');
  tree.append(spacer);

  const currentIndex = findSubject(index, current);
  let expanded: Set<string>;
  try {
    expanded = new Set(JSON.parse(stored(openKey) ?? '[]') as string[]);
  } catch {
    expanded = new Set();
  }
  if (currentIndex !== -1) for (const path of folderPathsOf(index, currentIndex)) expanded.add(path);
  let rows = visibleRows(index, expanded);
  let positions = new Map(rows.map((entry, position) => [entry, position]));
  let active = currentIndex !== -1 ? currentIndex : 0;
  const elements = new Map<number, HTMLElement>();
  let rowHeight = 0;

  const element = (i: number): HTMLElement => {
    let row = elements.get(i);
    if (row) return row;
    const entry = index.entries[i]!;
    if (entry.folder !== undefined) {
      row = document.createElement('div');
      row.className = 'nav-row nav-folder';
      const twisty = document.createElement('span');
      twisty.className = 'nav-twisty';
      twisty.setAttribute('aria-hidden', 'true');
      const name = document.createElement('span');
      name.className = 'nav-name';
      name.textContent = entry.folder;
      row.append(twisty, name);
      row.addEventListener('click', () => {
        setActive(i, true);
        toggle(i);
      });
    } else {
      const link = document.createElement('a');
      link.href = `${topicUrl}${entry.address}/`;
      link.className = 'nav-row nav-subject';
      link.textContent = entry.title!;
      if (i === currentIndex) link.setAttribute('aria-current', 'page');
      row = link;
    }
    row.id = `nav-entry-${i}`;
    row.setAttribute('role', 'treeitem');
    row.setAttribute('aria-level', String(entry.depth + 1));
    row.setAttribute('aria-posinset', String(index.position[i]));
    row.setAttribute('aria-setsize', String(index.size[i]));
    row.title = entry.folder ?? entry.title!;
    row.style.setProperty('--depth', String(entry.depth));
    elements.set(i, row);
    return row;
  };

  const render = (): void => {
    rowHeight ||= measureRow();
    spacer.style.height = `${rows.length * rowHeight}px`;
    const view = tree.clientHeight || 600;
    const first = Math.max(0, Math.floor(tree.scrollTop / rowHeight) - OVERSCAN);
    const last = Math.min(rows.length, Math.ceil((tree.scrollTop + view) / rowHeight) + OVERSCAN);
    const wanted: number[] = rows.slice(first, last);
    // The active row stays in the document wherever it is: it is the one Tab reaches.
    const activePosition = positions.get(active);
    if (activePosition !== undefined && (activePosition < first || activePosition >= last)) {
      wanted.push(active);
      wanted.sort((a, b) => a - b);
    }
    const keep = new Set(wanted);
    for (const [i, row] of elements) if (!keep.has(i) && row.isConnected) row.remove();
    let previous: HTMLElement | null = null;
    for (const i of wanted) {
      const row = element(i);
      row.style.top = `${positions.get(i)! * rowHeight}px`;
      row.tabIndex = i === active ? 0 : -1;
      if (index.entries[i]!.folder !== undefined) row.setAttribute('aria-expanded', String(expanded.has(index.paths[i]!)));
      // Rows only ever come in reading order, so a row in the document never moves (it may have the focus).
      if (!row.isConnected) {
        if (previous) previous.after(row);
        else spacer.prepend(row);
      }
      previous = row;
    }
  };

  const measureRow = (): number => {
    const probe = element(0);
    spacer.prepend(probe);
    const height = probe.getBoundingClientRect().height;
    return height > 0 ? height : 30;
  };

  const refresh = (): void => {
    rows = visibleRows(index, expanded);
    positions = new Map(rows.map((entry, position) => [entry, position]));
    store(openKey, JSON.stringify([...expanded]));
    render();
  };

  const toggle = (i: number): void => {
    const path = index.paths[i]!;
    if (expanded.has(path)) expanded.delete(path);
    else expanded.add(path);
    refresh();
  };

  /** Moves the active row to entry `i`, scrolling it into the tree's view (not the page's). */
  const setActive = (i: number, focus: boolean): void => {
    active = i;
    const position = positions.get(i) ?? 0;
    const top = position * (rowHeight || 30);
    if (top < tree.scrollTop) tree.scrollTop = top;
    else if (top + rowHeight > tree.scrollTop + tree.clientHeight) tree.scrollTop = top + rowHeight - tree.clientHeight;
    render();
    if (focus) element(i).focus({ preventScroll: true });
  };

  tree.addEventListener('keydown', (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const position = positions.get(active) ?? 0;
    const entry = index.entries[active]!;
    const isFolder = entry.folder !== undefined;
    const open = isFolder && expanded.has(index.paths[active]!);
    switch (event.key) {
      case 'ArrowDown':
        if (position + 1 < rows.length) setActive(rows[position + 1]!, true);
        break;
      case 'ArrowUp':
        if (position > 0) setActive(rows[position - 1]!, true);
        break;
      case 'Home':
        setActive(rows[0]!, true);
        break;
      case 'End':
        setActive(rows[rows.length - 1]!, true);
        break;
      case 'ArrowRight':
        if (isFolder && !open) toggle(active);
        else if (open && position + 1 < rows.length) setActive(rows[position + 1]!, true);
        break;
      case 'ArrowLeft':
        if (open) toggle(active);
        else if (index.parent[active]! !== -1) setActive(index.parent[active]!, true);
        break;
      case 'Enter':
      case ' ':
        if (isFolder) toggle(active);
        else if (event.key === ' ') element(active).click();
        else return; // A link follows itself.
        break;
      default:
        return;
    }
    event.preventDefault();
  });
  tree.addEventListener('focusin', (event) => {
    const id = (event.target as HTMLElement).id;
    if (id.startsWith('nav-entry-')) active = Number(id.slice('nav-entry-'.length));
  });
  let frame = 0;
  tree.addEventListener('scroll', () => {
    if (frame) return;
    frame = requestAnimationFrame(() => {
      frame = 0;
      render();
    });
  });
  // The tree's height changes with the window, and when it moves into the phone drawer.
  new ResizeObserver(() => render()).observe(tree);

  host.replaceChildren(tree);
  render();
  const position = positions.get(active) ?? 0;
  tree.scrollTop = Math.max(0, position * rowHeight - (tree.clientHeight - rowHeight) / 2);
  render();
  tree.dataset['ready'] = 'true';
}

/** The drawer that holds the sidebar on phones: the header's menu button opens it; Escape closes it. */
function setUpDrawer(nav: HTMLElement): void {
  const button = document.getElementById('nav-menu-button') as HTMLButtonElement | null;
  const drawer = document.getElementById('nav-drawer') as HTMLDialogElement | null;
  const body = document.getElementById('nav-drawer-body');
  const home = nav.parentElement;
  if (!button || !drawer || !body || !home) return;
  button.hidden = false;
  button.addEventListener('click', () => {
    body.append(nav);
    drawer.showModal();
    button.setAttribute('aria-expanded', 'true');
    (nav.querySelector<HTMLElement>('.nav-tree [tabindex="0"]') ?? drawer.querySelector<HTMLElement>('button'))?.focus();
  });
  drawer.addEventListener('close', () => {
    home.append(nav);
    button.setAttribute('aria-expanded', 'false');
    button.focus();
  });
  drawer.querySelector('.nav-drawer-close')?.addEventListener('click', () => drawer.close());
  // A click on the backdrop (outside the panel) closes the drawer.
  drawer.addEventListener('click', (event) => {
    if (event.target === drawer) drawer.close();
  });
  // Tab and Shift+Tab go round the drawer's own controls.
  drawer.addEventListener('keydown', (event) => {
    if (event.key !== 'Tab') return;
    const stops = [...drawer.querySelectorAll<HTMLElement>('a[href], button, [tabindex="0"]')].filter((e) => e.tabIndex >= 0 && e.getClientRects().length > 0);
    if (stops.length === 0) return;
    const first = stops[0]!;
    const last = stops[stops.length - 1]!;
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first.focus();
    }
  });
  matchMedia(PHONE).addEventListener('change', (event) => {
    if (!event.matches && drawer.open) drawer.close();
  });
}

/** The table of contents: folded on phones (the page's inline script folds it before the first paint), open on wider screens. */
function setUpToc(): void {
  const toc = document.getElementById('toc') as HTMLDetailsElement | null;
  if (!toc) return;
  matchMedia(PHONE).addEventListener('change', (event) => {
    toc.open = !event.matches;
  });
  // On a phone, following a link of the contents folds them again.
  toc.addEventListener('click', (event) => {
    if ((event.target as HTMLElement).closest('a') && matchMedia(PHONE).matches) toc.open = false;
  });
}

/** Wires the sidebar of a subject page. */
export async function setUpSidebar(): Promise<void> {
  setUpToc();
  const nav = document.getElementById('topic-nav');
  const host = document.getElementById('topic-nav-tree');
  if (!nav || !host) return;
  setUpDrawer(nav);
  const { navUrl, topicUrl, current, currentTitle, hidden } = nav.dataset;
  if (!navUrl || !topicUrl || current === undefined) return;
  const page = {
    address: current,
    title: currentTitle ?? '',
    previous: addressOfLink(document.querySelector('a[rel="prev"]'), topicUrl),
    next: addressOfLink(document.querySelector('a[rel="next"]'), topicUrl),
  };
  try {
    // A hidden subject is in no tree: its page has nothing to compare.
    const index = await loadNav(navUrl, (i) => hidden === 'true' || agreesWithPage(i, page));
    if (index.entries.length === 0) return;
    renderTree(host, index, current, topicUrl, nav.getAttribute('aria-label') ?? 'Subjects', `syllabus-nav-open:${navUrl}`);
    performance.mark('syllabus-nav-ready');
  } catch (error) {
    // The fallback link to the topic page stays.
    console.error('Syllabus: the topic sidebar could not be shown:', error);
  }
}

if (typeof document !== 'undefined') void setUpSidebar();
