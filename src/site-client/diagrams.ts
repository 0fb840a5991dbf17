/**
 * Diagrams (content/guide/the-site.md, "Math and diagrams"): each `figure.diagram` of the page,
 * which holds a mermaid fence, is drawn as an SVG by the mermaid library the site publishes (the
 * URL in this script's `data-mermaid`), in the page's light or dark theme, and drawn again when
 * the theme changes. The fence stays in the page, hidden once drawn: without a script, or when
 * mermaid cannot read it, the reader sees the source. Runs as it loads.
 */

/** The part of mermaid's API this script uses. */
interface Mermaid {
  initialize(config: Record<string, unknown>): void;
  render(id: string, text: string): Promise<{ svg: string }>;
}

let drawing = 0;

/** Draws every diagram of the page in the current theme. */
async function drawDiagrams(mermaid: Mermaid, figures: HTMLElement[]): Promise<void> {
  const round = ++drawing;
  const dark = document.documentElement.dataset['theme'] === 'dark';
  // Strict: labels are text, links and scripts in a diagram's source are never followed or run.
  mermaid.initialize({ startOnLoad: false, securityLevel: 'strict', theme: dark ? 'dark' : 'default', fontFamily: 'inherit' });
  for (const [index, figure] of figures.entries()) {
    const pre = figure.querySelector('pre');
    if (!pre) continue;
    try {
      const { svg } = await mermaid.render(`syllabus-diagram-${round}-${index}`, pre.textContent ?? '');
      // A newer round (the theme changed meanwhile) draws over this one.
      if (round !== drawing) return;
      let output = figure.querySelector<HTMLElement>('.diagram-svg');
      if (!output) {
        output = document.createElement('div');
        output.className = 'diagram-svg';
        figure.append(output);
      }
      output.innerHTML = svg;
      pre.hidden = true;
      figure.dataset['drawn'] = 'true';
      delete figure.dataset['error'];
    } catch (error) {
      pre.hidden = false;
      figure.querySelector('.diagram-svg')?.remove();
      figure.dataset['error'] = (error as Error).message;
    }
  }
}

/** Loads mermaid and draws the page's diagrams, again whenever the theme changes. */
export async function setUpDiagrams(): Promise<void> {
  const figures = [...document.querySelectorAll<HTMLElement>('figure.diagram')];
  const url = document.querySelector<HTMLScriptElement>('script[data-mermaid]')?.dataset['mermaid'];
  if (figures.length === 0 || url === undefined) return;
  const mermaid = ((await import(url)) as { default: Mermaid }).default;
  await drawDiagrams(mermaid, figures);
  new MutationObserver(() => void drawDiagrams(mermaid, figures)).observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });
}

void setUpDiagrams();
