/**
 * Browser code of every page: the theme control (system, light or dark; remembered), the header's
 * menus, the "Use with an agent" snippet. Runs as it loads; search's keys (`/`, Ctrl-K) are search.ts's.
 */

const STORAGE_KEY = 'syllabus-theme';

/** A theme choice: `system` follows the device's `prefers-color-scheme`, live. */
export type ThemeChoice = 'system' | 'light' | 'dark';

/** What a click on the theme control chooses next. */
export const NEXT_THEME: Readonly<Record<ThemeChoice, ThemeChoice>> = { system: 'light', light: 'dark', dark: 'system' };

const NAMES: Readonly<Record<ThemeChoice, string>> = { system: 'System', light: 'Light', dark: 'Dark' };

/** The theme control's label: the current choice, then what a click does. */
export function themeLabel(choice: ThemeChoice): string {
  return `Theme: ${NAMES[choice].toLowerCase()}. Switch to ${NAMES[NEXT_THEME[choice]].toLowerCase()}`;
}

/** Wires the theme control: the page's theme was set before the first paint (Base.astro's inline script). */
function setUpTheme(): void {
  const root = document.documentElement;
  const toggle = document.getElementById('theme-toggle');
  const prefersDark = matchMedia('(prefers-color-scheme: dark)');
  const current = (): ThemeChoice => {
    const choice = root.dataset['themeChoice'];
    return choice === 'light' || choice === 'dark' ? choice : 'system';
  };
  const apply = (choice: ThemeChoice): void => {
    root.dataset['themeChoice'] = choice;
    root.dataset['theme'] = choice === 'system' ? (prefersDark.matches ? 'dark' : 'light') : choice;
    if (!toggle) return;
    const label = themeLabel(choice);
    toggle.setAttribute('aria-label', label);
    toggle.title = label;
    const text = toggle.querySelector('.theme-label');
    if (text) text.textContent = NAMES[choice];
  };
  apply(current());
  prefersDark.addEventListener('change', () => {
    if (current() === 'system') apply('system');
  });
  toggle?.addEventListener('click', () => {
    const next = NEXT_THEME[current()];
    try {
      if (next === 'system') localStorage.removeItem(STORAGE_KEY);
      else localStorage.setItem(STORAGE_KEY, next);
    } catch {
      // Private windows may refuse storage: the control still works for this page.
    }
    apply(next);
  });
  // Another tab's choice applies here too.
  addEventListener('storage', (event) => {
    if (event.key !== STORAGE_KEY) return;
    apply(event.newValue === 'light' || event.newValue === 'dark' ? event.newValue : 'system');
  });
}

/** Menus made of `<details class="menu">`: Escape and a click elsewhere close them. */
function setUpMenus(): void {
  const menus = [...document.querySelectorAll<HTMLDetailsElement>('details.menu')];
  document.addEventListener('click', (event) => {
    for (const menu of menus) if (menu.open && !menu.contains(event.target as Node)) menu.open = false;
  });
  document.addEventListener('keydown', (event) => {
    if (event.key !== 'Escape') return;
    for (const menu of menus) {
      if (!menu.open) continue;
      menu.open = false;
      menu.querySelector('summary')?.focus();
    }
  });
}

/** The "Use with an agent" snippet: the site's own address when `[site] url` is not set, and its copy button. */
function setUpAgentSnippet(): void {
  const pre = document.getElementById('mcp-config');
  if (!pre) return;
  const { name, url, absolute } = pre.dataset;
  if (name && url && absolute !== 'true') {
    const code = pre.querySelector('code');
    const config = { mcpServers: { [name]: { command: 'npx', args: ['-y', 'syllabus-kb', 'mcp', '--remote', new URL(url, location.href).href] } } };
    if (code) code.textContent = JSON.stringify(config, null, 2);
  }
  for (const button of document.querySelectorAll<HTMLButtonElement>('button.copy-snippet')) {
    const status = button.parentElement?.querySelector('.snippet-status');
    button.addEventListener('click', () => {
      const source = document.getElementById(button.dataset['copy'] ?? '');
      navigator.clipboard.writeText(source?.textContent ?? '').then(
        () => {
          if (status) status.textContent = 'Copied';
        },
        (error: unknown) => {
          if (status) status.textContent = `Could not copy: ${(error as Error).message}`;
        },
      );
    });
  }
}

/** Wires the header's controls and the footer's snippet. */
export function setUpShell(): void {
  setUpTheme();
  setUpMenus();
  setUpAgentSnippet();
}

if (typeof document !== 'undefined') setUpShell();
