/**
 * The chart of the scale benchmark (scripts/bench-scale.ts, content/guide/performance.md): build
 * time and peak memory against the number of subjects, as plain SVG. Two panels share the
 * subjects axis; the time panel draws the linear extrapolation from one measured size as a dashed
 * line, the memory panel its target. The chart draws its own background and switches its colours
 * with the reader's colour scheme, so it reads on a light or a dark page; it names no font file
 * and loads nothing.
 */

/** One measured size of the scale benchmark. */
export interface ScalePoint {
  subjects: number;
  /** The full build's time in seconds. */
  seconds: number;
  /** The largest peak resident set size of one process of the build, in bytes. */
  peakBytes: number;
}

/** What {@link renderScalingChart} draws. */
export interface ScalingChart {
  /** The sizes that built, in any order. */
  points: ScalePoint[];
  /** The size the linear extrapolation starts from (its time × subjects / its subjects). */
  base: number;
  /** A memory limit drawn across the memory panel, in bytes. */
  memoryTarget: number;
  /** A line under the title: the machine and the corpus. */
  caption: string;
}

const WIDTH = 720;
const LEFT = 84;
const RIGHT = 652;
const PANEL_HEIGHT = 170;
const TIME_TOP = 78;
const MEMORY_TOP = TIME_TOP + PANEL_HEIGHT + 82;
const HEIGHT = MEMORY_TOP + PANEL_HEIGHT + 62;
const MB = 1024 * 1024;

/** Escapes text for an SVG text node or attribute. */
function escape(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** Round tick values from 0 to at least `max`: 1, 2 or 5 times a power of ten apart, four to eight of them. */
export function niceTicks(max: number): number[] {
  if (!(max > 0)) return [0, 1];
  const rough = max / 5;
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => max / s <= 6) ?? 10 * power;
  const ticks: number[] = [];
  for (let value = 0; value < max + step; value += step) {
    ticks.push(Number(value.toPrecision(12)));
    if (value >= max) break;
  }
  return ticks;
}

/** A number with thousands separated by commas ("100,000"). */
function grouped(value: number): string {
  return Math.round(value)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** A memory limit as people say it: "2 GB", or "1,500 MB" when not whole gigabytes. */
function targetLabel(bytes: number): string {
  return bytes % (1024 * MB) === 0 ? `${bytes / (1024 * MB)} GB` : `${grouped(bytes / MB)} MB`;
}

const fixed = (value: number) => Number(value.toFixed(1)).toString();

/** One panel: its frame, grid, tick labels and axis title; returns the SVG and a projection of values. */
function panel(top: number, xTicks: number[], yTicks: number[], yLabel: string, yFormat: (v: number) => string) {
  const xMax = xTicks.at(-1)!;
  const yMax = yTicks.at(-1)!;
  const x = (value: number) => fixed(LEFT + ((RIGHT - LEFT) * value) / xMax);
  const y = (value: number) => fixed(top + PANEL_HEIGHT - (PANEL_HEIGHT * value) / yMax);
  const parts: string[] = [];
  for (const tick of yTicks) {
    parts.push(`<line class="grid" x1="${LEFT}" y1="${y(tick)}" x2="${RIGHT}" y2="${y(tick)}"/>`);
    parts.push(`<text class="tick" x="${LEFT - 8}" y="${y(tick)}" text-anchor="end" dominant-baseline="middle">${yFormat(tick)}</text>`);
  }
  for (const tick of xTicks) {
    parts.push(`<text class="tick" x="${x(tick)}" y="${top + PANEL_HEIGHT + 18}" text-anchor="middle">${grouped(tick)}</text>`);
  }
  parts.push(`<line class="axis" x1="${LEFT}" y1="${top + PANEL_HEIGHT}" x2="${RIGHT}" y2="${top + PANEL_HEIGHT}"/>`);
  parts.push(`<line class="axis" x1="${LEFT}" y1="${top}" x2="${LEFT}" y2="${top + PANEL_HEIGHT}"/>`);
  const middle = top + PANEL_HEIGHT / 2;
  parts.push(`<text class="label" x="22" y="${middle}" text-anchor="middle" transform="rotate(-90 22 ${middle})">${escape(yLabel)}</text>`);
  return { svg: parts.join('\n'), x, y };
}

/** The measured series of a panel: a line through the points and a dot on each, with its value. */
function series(points: { x: string; y: string; label: string }[], className: string): string {
  const parts = [`<polyline class="${className}" fill="none" points="${points.map((p) => `${p.x},${p.y}`).join(' ')}"/>`];
  for (const p of points) {
    parts.push(`<circle class="${className}-dot" cx="${p.x}" cy="${p.y}" r="4"/>`);
    parts.push(`<text class="value" x="${p.x}" y="${fixed(Number(p.y) - 10)}" text-anchor="middle">${escape(p.label)}</text>`);
  }
  return parts.join('\n');
}

/**
 * The scaling chart as an SVG document: build time (seconds) and the largest process's peak
 * memory (MB) against subjects, the linear extrapolation from `base` dashed, the memory target
 * dotted. Sizes are drawn in order of subjects; the subjects axis starts at 0.
 */
export function renderScalingChart(chart: ScalingChart): string {
  const points = [...chart.points].sort((a, b) => a.subjects - b.subjects);
  const largest = points.at(-1)?.subjects ?? 1;
  const base = points.find((p) => p.subjects === chart.base);
  const linear = (subjects: number) => (base ? (base.seconds * subjects) / base.subjects : undefined);
  const xTicks = niceTicks(largest);
  const timeTicks = niceTicks(Math.max(...points.map((p) => p.seconds), linear(xTicks.at(-1)!) ?? 0));
  const memoryTicks = niceTicks(Math.max(...points.map((p) => p.peakBytes / MB), chart.memoryTarget / MB));

  const time = panel(TIME_TOP, xTicks, timeTicks, 'build time (s)', (v) => grouped(v));
  const memory = panel(MEMORY_TOP, xTicks, memoryTicks, 'peak memory (MB)', (v) => grouped(v));
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${WIDTH} ${HEIGHT}" width="${WIDTH}" height="${HEIGHT}" role="img" aria-labelledby="chart-title chart-desc">`,
    '<title id="chart-title">Build time and peak memory against subjects</title>',
    `<desc id="chart-desc">${escape(
      points.map((p) => `${grouped(p.subjects)} subjects: ${p.seconds.toFixed(1)} s, ${grouped(p.peakBytes / MB)} MB`).join('; ') +
        (base ? `. Dashed: linear from ${grouped(base.subjects)} subjects.` : '.'),
    )}</desc>`,
    '<style>',
    'svg { --bg: #ffffff; --fg: #1f2328; --muted: #59636e; --grid: #d1d9e0; --time: #0969da; --memory: #8250df; --target: #bc4c00; }',
    '@media (prefers-color-scheme: dark) { svg { --bg: #0d1117; --fg: #f0f6fc; --muted: #9198a1; --grid: #3d444d; --time: #4493f8; --memory: #ab7df8; --target: #f0883e; } }',
    'text { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; font-size: 13px; fill: var(--fg); }',
    '.tick, .value { font-size: 12px; fill: var(--muted); } .title { font-size: 16px; font-weight: 600; } .label { font-size: 13px; }',
    '.axis { stroke: var(--fg); stroke-width: 1; } .grid { stroke: var(--grid); stroke-width: 1; }',
    '.time { stroke: var(--time); stroke-width: 2.5; } .time-dot { fill: var(--time); }',
    '.memory { stroke: var(--memory); stroke-width: 2.5; } .memory-dot { fill: var(--memory); }',
    '.linear { stroke: var(--time); stroke-width: 1.5; stroke-dasharray: 6 5; fill: none; }',
    '.target { stroke: var(--target); stroke-width: 1.5; stroke-dasharray: 2 4; }',
    '.legend-target { fill: var(--target); } .legend-time { fill: var(--time); }',
    '</style>',
    `<rect class="background" width="${WIDTH}" height="${HEIGHT}" rx="8" style="fill: var(--bg)"/>`,
    `<text class="title" x="${LEFT}" y="30">Full build as the knowledge base grows</text>`,
    `<text class="tick" x="${LEFT}" y="50">${escape(chart.caption)}</text>`,
    time.svg,
  ];
  const lastTick = xTicks.at(-1)!;
  const linearEnd = linear(lastTick);
  if (linearEnd !== undefined) {
    parts.push(`<line class="linear" x1="${time.x(0)}" y1="${time.y(0)}" x2="${time.x(lastTick)}" y2="${time.y(linearEnd)}"/>`);
    // Top left inside the panel: the lines rise to the right, where the last point's label is.
    parts.push(`<text class="legend-time" x="${LEFT + 8}" y="${TIME_TOP + 16}">dashed: linear from ${grouped(chart.base)} subjects</text>`);
  }
  parts.push(
    series(
      points.map((p) => ({ x: time.x(p.subjects), y: time.y(p.seconds), label: `${p.seconds.toFixed(0)} s` })),
      'time',
    ),
  );
  parts.push(memory.svg);
  const target = memory.y(chart.memoryTarget / MB);
  parts.push(`<line class="target" x1="${LEFT}" y1="${target}" x2="${RIGHT}" y2="${target}"/>`);
  // Midway along the line: the largest size's label, at the right end, may sit just under the target.
  parts.push(`<text class="legend-target" x="${(LEFT + RIGHT) / 2}" y="${fixed(Number(target) - 6)}" text-anchor="middle">target: ${targetLabel(chart.memoryTarget)}</text>`);
  parts.push(`<text class="tick" x="${LEFT + 8}" y="${MEMORY_TOP - 8}">the largest single process of each build</text>`);
  parts.push(
    series(
      points.map((p) => ({ x: memory.x(p.subjects), y: memory.y(p.peakBytes / MB), label: `${grouped(p.peakBytes / MB)} MB` })),
      'memory',
    ),
  );
  parts.push(`<text class="label" x="${(LEFT + RIGHT) / 2}" y="${HEIGHT - 14}" text-anchor="middle">subjects</text>`);
  parts.push('</svg>');
  return parts.join('\n') + '\n';
}
