import { describe, expect, it } from 'vitest';
import { niceTicks, renderScalingChart, type ScalingChart } from '../../scripts/bench-chart.ts';

const MB = 1024 * 1024;

const chart: ScalingChart = {
  points: [
    // Out of order on purpose: the chart sorts by subjects.
    { subjects: 50_000, seconds: 210, peakBytes: 800 * MB },
    { subjects: 25_000, seconds: 100, peakBytes: 500 * MB },
  ],
  base: 25_000,
  memoryTarget: 2048 * MB,
  caption: 'tldr <pages> & more',
};

/** Every element of `tag` with its attributes, in document order. */
function elements(svg: string, tag: string): Record<string, string>[] {
  return [...svg.matchAll(new RegExp(`<${tag}\\b([^>]*)>`, 'g'))].map((m) => Object.fromEntries([...m[1]!.matchAll(/([\w:-]+)="([^"]*)"/g)].map((a) => [a[1]!, a[2]!])));
}

/** The text of every `<text>` element of `className`, in document order. */
function texts(svg: string, className: string): string[] {
  return [...svg.matchAll(new RegExp(`<text class="${className}"[^>]*>([^<]*)</text>`, 'g'))].map((m) => m[1]!);
}

describe('niceTicks', () => {
  it('steps by 1, 2 or 5 times a power of ten from 0 to at least the maximum', () => {
    expect(niceTicks(100_000)).toEqual([0, 20_000, 40_000, 60_000, 80_000, 100_000]);
    expect(niceTicks(640)).toEqual([0, 200, 400, 600, 800]);
    expect(niceTicks(210)).toEqual([0, 50, 100, 150, 200, 250]);
    expect(niceTicks(2048)).toEqual([0, 500, 1000, 1500, 2000, 2500]);
    expect(niceTicks(0)).toEqual([0, 1]);
  });
});

describe('renderScalingChart', () => {
  const svg = renderScalingChart(chart);

  it('is one standalone SVG document with a title and a description of every figure', () => {
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 720 562" width="720" height="562" role="img" aria-labelledby="chart-title chart-desc">\n')).toBe(
      true,
    );
    expect(svg.endsWith('</svg>\n')).toBe(true);
    expect(svg).toContain('<title id="chart-title">Build time and peak memory against subjects</title>');
    expect(svg).toContain('<desc id="chart-desc">25,000 subjects: 100.0 s, 500 MB; 50,000 subjects: 210.0 s, 800 MB. Dashed: linear from 25,000 subjects.</desc>');
  });

  it('loads nothing: no links, no font files, no imports', () => {
    expect(svg).not.toMatch(/href|url\(|@import|@font-face|<script|<image/);
  });

  it('draws its own background and switches its colours for a dark scheme', () => {
    expect(elements(svg, 'rect')).toEqual([{ class: 'background', width: '720', height: '562', rx: '8', style: 'fill: var(--bg)' }]);
    expect(svg).toMatch(/@media \(prefers-color-scheme: dark\) \{ svg \{ --bg: #0d1117; --fg: #f0f6fc;/);
  });

  it('plots time and memory at each size, sorted by subjects', () => {
    const polylines = elements(svg, 'polyline');
    expect(polylines).toEqual([
      { class: 'time', fill: 'none', points: '368,180 652,105.2' },
      { class: 'memory', fill: 'none', points: '368,466 652,445.6' },
    ]);
    expect(elements(svg, 'circle').map((c) => [c['class'], c['cx'], c['cy']])).toEqual([
      ['time-dot', '368', '180'],
      ['time-dot', '652', '105.2'],
      ['memory-dot', '368', '466'],
      ['memory-dot', '652', '445.6'],
    ]);
    expect(texts(svg, 'value')).toEqual(['100 s', '210 s', '500 MB', '800 MB']);
  });

  it('draws the linear extrapolation from the base size dashed, from the origin to the last tick', () => {
    expect(elements(svg, 'line').filter((l) => l['class'] === 'linear')).toEqual([{ class: 'linear', x1: '84', y1: '248', x2: '652', y2: '112' }]);
    expect(svg).toContain('.linear { stroke: var(--time); stroke-width: 1.5; stroke-dasharray: 6 5; fill: none; }');
    expect(texts(svg, 'legend-time')).toEqual(['dashed: linear from 25,000 subjects']);
  });

  it('draws the memory target across the memory panel', () => {
    expect(elements(svg, 'line').filter((l) => l['class'] === 'target')).toEqual([{ class: 'target', x1: '84', y1: '360.7', x2: '652', y2: '360.7' }]);
    expect(texts(svg, 'legend-target')).toEqual(['target: 2 GB']);
  });

  it('labels both axes of both panels, and escapes the caption', () => {
    expect(texts(svg, 'label')).toEqual(['build time (s)', 'peak memory (MB)', 'subjects']);
    expect(texts(svg, 'tick')).toEqual([
      'tldr &lt;pages&gt; &amp; more',
      ...['0', '50', '100', '150', '200', '250'],
      ...['0', '10,000', '20,000', '30,000', '40,000', '50,000'],
      ...['0', '500', '1,000', '1,500', '2,000', '2,500'],
      ...['0', '10,000', '20,000', '30,000', '40,000', '50,000'],
      'the largest single process of each build',
    ]);
  });

  it('draws no extrapolation when the base size did not build', () => {
    const without = renderScalingChart({ ...chart, base: 100_000 });
    expect(elements(without, 'line').filter((l) => l['class'] === 'linear')).toEqual([]);
    expect(texts(without, 'legend-time')).toEqual([]);
    expect(without).toContain('<desc id="chart-desc">25,000 subjects: 100.0 s, 500 MB; 50,000 subjects: 210.0 s, 800 MB.</desc>');
  });
});
