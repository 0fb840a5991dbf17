/**
 * A subject page's actions: "Copy as markdown" copies the subject's `.md` twin, exactly as agents
 * get it; the "Open in" menu's links name the twin's absolute address (resolved here when the
 * site has no `[site] url`).
 */

/** Wires every copy button on the page. */
export function setUpCopyMarkdown(): void {
  for (const button of document.querySelectorAll<HTMLButtonElement>('button.copy-markdown')) {
    const status = button.parentElement?.querySelector('.copy-status') ?? null;
    button.addEventListener('click', () => void copyMarkdown(button, status));
  }
}

/** Fetches the button's `.md` address into the clipboard, and says how it went in `status`. */
async function copyMarkdown(button: HTMLButtonElement, status: Element | null): Promise<void> {
  try {
    const response = await fetch(button.dataset['markdownUrl']!);
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    await navigator.clipboard.writeText(await response.text());
    if (status) status.textContent = 'Copied';
  } catch (error) {
    if (status) status.textContent = `Could not copy: ${(error as Error).message}`;
  }
}

/** Points the "Open in" links at the twin's absolute address, as this page is served. */
export function setUpOpenIn(): void {
  for (const link of document.querySelectorAll<HTMLAnchorElement>('a[data-assistant][data-markdown-url]')) {
    const { assistant, prompt, markdownUrl } = link.dataset;
    if (!assistant || !prompt || !markdownUrl) continue;
    link.href = `${assistant}${encodeURIComponent(prompt.replace('{url}', new URL(markdownUrl, location.href).href))}`;
  }
}

setUpCopyMarkdown();
setUpOpenIn();
