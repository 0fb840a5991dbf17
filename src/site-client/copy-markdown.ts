/** "Copy as markdown": copies the subject's `.md` twin, exactly as agents get it. */

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

setUpCopyMarkdown();
