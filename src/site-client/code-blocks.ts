/**
 * Code blocks (content/guide/the-site.md, "Code"): every highlighted block of a page gets its
 * language and a copy button; a code subject's block, whose header the page writes, gets its
 * copy button and its wrap toggle working, the toggle remembered across pages. Runs as it loads.
 */

const WRAP_KEY = 'syllabus-code-wrap';

/** The text of a block's code as a reader selects it: line numbers are drawn by CSS and never part of it. */
function codeOf(pre: HTMLPreElement): string {
  return (pre.querySelector('code') ?? pre).textContent ?? '';
}

/** Makes `button` copy `pre`'s code, saying "Copied" (or why not) for a moment. */
function wireCopy(button: HTMLButtonElement, pre: HTMLPreElement): void {
  const idle = button.textContent ?? 'Copy';
  let timer: ReturnType<typeof setTimeout> | undefined;
  button.addEventListener('click', () => {
    const say = (text: string): void => {
      button.textContent = text;
      clearTimeout(timer);
      timer = setTimeout(() => (button.textContent = idle), 2000);
    };
    navigator.clipboard.writeText(codeOf(pre)).then(
      () => say('Copied'),
      () => say('Copy failed'),
    );
  });
  button.hidden = false;
}

/** A button of the toolbar. */
function button(className: string, text: string, label: string): HTMLButtonElement {
  const element = document.createElement('button');
  element.type = 'button';
  element.className = className;
  element.textContent = text;
  element.setAttribute('aria-label', label);
  return element;
}

/** Gives a markdown block its toolbar: the language (when it has one) and a copy button. */
function frameBlock(pre: HTMLPreElement): void {
  const language = pre.dataset['label'] ?? pre.dataset['language'] ?? '';
  const frame = document.createElement('div');
  frame.className = 'code-frame';
  pre.before(frame);
  const toolbar = document.createElement('div');
  toolbar.className = 'code-toolbar';
  if (language !== '' && language !== 'plaintext') {
    const label = document.createElement('span');
    label.className = 'code-language';
    label.textContent = language;
    toolbar.append(label);
  }
  const copy = button('code-copy', 'Copy', language === '' || language === 'plaintext' ? 'Copy code' : `Copy ${language} code`);
  toolbar.append(copy);
  frame.append(toolbar, pre);
  wireCopy(copy, pre);
}

/** Whether long lines wrap, as the reader last chose. */
function storedWrap(): boolean {
  try {
    return localStorage.getItem(WRAP_KEY) === 'wrap';
  } catch {
    return false;
  }
}

/** Wires the copy button and wrap toggle of a code subject's block (`figure.code-block`). */
function wireCodeSubject(figure: HTMLElement): void {
  const pre = figure.querySelector('pre');
  if (!pre) return;
  const copy = figure.querySelector<HTMLButtonElement>('button.code-copy');
  if (copy) wireCopy(copy, pre);
  const wrap = figure.querySelector<HTMLButtonElement>('button.code-wrap');
  if (!wrap) return;
  const show = (on: boolean): void => {
    figure.classList.toggle('wrap', on);
    wrap.setAttribute('aria-pressed', String(on));
  };
  show(storedWrap());
  wrap.addEventListener('click', () => {
    const on = !figure.classList.contains('wrap');
    show(on);
    try {
      localStorage.setItem(WRAP_KEY, on ? 'wrap' : 'scroll');
    } catch {
      // Private windows may refuse storage: the toggle still works on this page.
    }
  });
  wrap.hidden = false;
}

/** Wires every code block of the page. */
export function setUpCodeBlocks(): void {
  for (const figure of document.querySelectorAll<HTMLElement>('figure.code-block')) wireCodeSubject(figure);
  for (const pre of document.querySelectorAll<HTMLPreElement>('.prose pre.astro-code')) {
    if (!pre.closest('figure.code-block')) frameBlock(pre);
  }
}

setUpCodeBlocks();
