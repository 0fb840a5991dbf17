/**
 * Which of Shiki's grammars highlights a code block (content/reference/subject-formats.md,
 * "Highlighting on the site"): Shiki's own language or alias when it has one, else the closest
 * grammar it has for a language it lacks, else plain text. Only the site's highlighting reads
 * this: the info string agents get stays the extension (content/reference/subject-formats.md,
 * "Fenced").
 */
import { bundledLanguages } from 'shiki';

/**
 * Languages Shiki lacks, by info string (a code subject's extension, or a fence's first word, in
 * lower case), and the grammar of Shiki that highlights them. Each is the same syntax, or a dialect
 * the grammar reads correctly; an extension that several unrelated formats share (`.conf`, `.m`,
 * `.cls`) is left out, so it is shown as plain text rather than coloured wrongly.
 * test/build/render/language-grammars.test.ts checks that every grammar exists and that no entry
 * hides a language Shiki has.
 */
export const GRAMMAR_FOR: Readonly<Record<string, string>> = {
  // XML vocabularies
  atom: 'xml',
  csproj: 'xml',
  fsproj: 'xml',
  gpx: 'xml',
  kml: 'xml',
  nuspec: 'xml',
  plist: 'xml',
  props: 'xml',
  resx: 'xml',
  rng: 'xml',
  rss: 'xml',
  storyboard: 'xml',
  svg: 'xml',
  targets: 'xml',
  vbproj: 'xml',
  vcxproj: 'xml',
  wsdl: 'xml',
  wxs: 'xml',
  xaml: 'xml',
  xib: 'xml',
  xlf: 'xml',
  xliff: 'xml',
  xsd: 'xml',
  xslt: 'xsl',
  xhtml: 'html',
  // JSON
  geojson: 'json',
  ipynb: 'json',
  jsonld: 'json',
  webmanifest: 'json',
  ndjson: 'jsonl',
  // configuration
  cfg: 'ini',
  env: 'dotenv',
  automount: 'systemd',
  mount: 'systemd',
  service: 'systemd',
  slice: 'systemd',
  socket: 'systemd',
  timer: 'systemd',
  rest: 'http',
  // build files
  bazel: 'python',
  bzl: 'python',
  star: 'python',
  gradle: 'groovy',
  mak: 'make',
  mk: 'make',
  containerfile: 'docker',
  // programming languages under another extension
  h: 'c',
  cc: 'cpp',
  cxx: 'cpp',
  hh: 'cpp',
  hpp: 'cpp',
  hxx: 'cpp',
  ino: 'cpp',
  mm: 'objective-cpp',
  el: 'emacs-lisp',
  ex: 'elixir',
  exs: 'elixir',
  gemspec: 'ruby',
  podspec: 'ruby',
  rake: 'ruby',
  pl: 'perl',
  pm: 'perl',
  psd1: 'powershell',
  psm1: 'powershell',
  pyi: 'python',
  pyw: 'python',
  sbt: 'scala',
  sc: 'scala',
  // templates and patches
  j2: 'jinja',
  jinja2: 'jinja',
  mustache: 'handlebars',
  patch: 'diff',
};

/** Languages Shiki renders without a grammar. */
const PLAIN = new Set(['plaintext', 'plain', 'text', 'txt', 'ansi']);

/**
 * The grammar that highlights a block whose info string names `language`: Shiki's own name for
 * it (any case), else {@link GRAMMAR_FOR}'s, else `plaintext`. Never fails.
 */
export function grammarOf(language: string): string {
  if (isShikiLanguage(language)) return language;
  const lower = language.toLowerCase();
  if (isShikiLanguage(lower)) return lower;
  return GRAMMAR_FOR[lower] ?? 'plaintext';
}

/** Whether Shiki highlights `name` itself (a bundled language or alias, or plain text). */
export function isShikiLanguage(name: string): boolean {
  return PLAIN.has(name) || Object.hasOwn(bundledLanguages, name);
}
