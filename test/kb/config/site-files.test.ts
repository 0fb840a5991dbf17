/** `[site] logo` and `favicon` (src/kb/config/site-files.ts): files of the knowledge base, checked before they are copied into the site. */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/kb/index.ts';
import { resolveSiteFiles } from '../../../src/kb/config/site-files.ts';
import { makeTree } from '../../helpers/temp-tree.ts';

/** The site files of a knowledge base whose kb.toml has `site` as its [site] table, beside `files`. */
function siteFilesOf(site: string, files: Record<string, string> = {}) {
  const toml = `[site]\n${site}\n[kb.topic.t]\nsubjects = "t"\n`;
  const root = makeTree({ 'kb.toml': toml, 't/a.md': '# A\n', ...files });
  const { config, diagnostics } = loadConfig([{ file: path.join(root, 'kb.toml'), text: toml }]);
  if (!config) throw new Error(JSON.stringify(diagnostics));
  return { root, ...resolveSiteFiles(config) };
}

describe('resolveSiteFiles', () => {
  it('publishes a logo and a favicon as logo.<ext> and favicon.<ext>', () => {
    const { root, files, diagnostics } = siteFilesOf('logo = "brand/Logo.JPEG"\nfavicon = "brand/icon.ico"', { 'brand/Logo.JPEG': 'jpeg', 'brand/icon.ico': 'ico' });
    expect(diagnostics).toEqual([]);
    expect(files).toEqual([
      { key: 'logo', file: fs.realpathSync(path.join(root, 'brand/Logo.JPEG')), sitePath: 'logo.jpg' },
      { key: 'favicon', file: fs.realpathSync(path.join(root, 'brand/icon.ico')), sitePath: 'favicon.ico' },
    ]);
  });

  it('names the key, the path and the fix when the file does not exist', () => {
    const { root, files, diagnostics } = siteFilesOf('logo = "brand/logo.png"');
    expect(files).toEqual([]);
    expect(diagnostics).toEqual([
      {
        kind: 'config-error',
        code: 'bad-site-file',
        message: `site.logo: the file "brand/logo.png" does not exist (${path.join(root, 'brand/logo.png')}). Add the image there or correct the path, or remove logo (the header then shows the title alone).`,
        file: path.join(root, 'kb.toml'),
        line: 2,
      },
    ]);
  });

  it('refuses a path outside the config file’s folder, a folder, and an SVG without allow_html', () => {
    const { root, diagnostics } = siteFilesOf('logo = "../logo.png"\nfavicon = "brand/icon.svg"', { 'brand/icon.svg': '<svg/>' });
    expect(diagnostics.map((d) => d.message)).toEqual([
      `site.logo: "../logo.png" leaves the folder of the config file. Put the file inside the folder of the config file (${root}) and give its path relative to that folder, because pull request previews build configs from untrusted branches.`,
      'site.favicon: "brand/icon.svg" is not an image the site can show as its favicon. An SVG file may carry scripts, so it is published only with allow_html = true. Use a file ending in .png, .ico, .gif, .webp, .avif.',
    ]);
    expect(siteFilesOf('logo = "brand"', { 'brand/x.png': 'x' }).diagnostics.map((d) => d.message)).toEqual(['site.logo: "brand" is not a file. Point logo at an image file.']);
    expect(siteFilesOf('allow_html = true\nfavicon = "icon.svg"', { 'icon.svg': '<svg/>' }).files.map((f) => f.sitePath)).toEqual(['favicon.svg']);
  });

  it('refuses a symlink that leads out of the config file’s folder', () => {
    const outside = makeTree({ 'logo.png': 'png' });
    const { root, diagnostics } = siteFilesOf('logo = "logo.png"');
    fs.symlinkSync(path.join(outside, 'logo.png'), path.join(root, 'logo.png'));
    const again = resolveSiteFiles(loadConfig([{ file: path.join(root, 'kb.toml'), text: '[site]\nlogo = "logo.png"\n[kb.topic.t]\nsubjects = "t"\n' }]).config!);
    expect(diagnostics).toHaveLength(1);
    expect(again.diagnostics.map((d) => d.message)).toEqual([
      `site.logo: "logo.png" is a symlink to ${fs.realpathSync(path.join(outside, 'logo.png'))}, outside the folder of the config file. Put the file inside the folder of the config file (${root}) and give its path relative to that folder, because pull request previews build configs from untrusted branches.`,
    ]);
  });
});
