/** Browser code of every page: the theme toggle (remembered). Runs as it loads; search's keys are search.ts's. */

const STORAGE_KEY = 'syllabus-theme';

/** Wires the header's controls. */
export function setUpShell(): void {
  const root = document.documentElement;
  const toggle = document.getElementById('theme-toggle');
  const show = (): void => {
    const dark = root.dataset['theme'] === 'dark';
    toggle?.setAttribute('aria-pressed', String(dark));
  };
  show();
  toggle?.addEventListener('click', () => {
    const next = root.dataset['theme'] === 'dark' ? 'light' : 'dark';
    root.dataset['theme'] = next;
    try {
      localStorage.setItem(STORAGE_KEY, next);
    } catch {
      // Private windows may refuse storage: the toggle still works for this page.
    }
    show();
  });
}

setUpShell();
