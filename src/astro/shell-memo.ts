/**
 * The parts of the page shell that are the same on many pages (the header of every page of a
 * topic, the footer of every page), rendered once per site and repeated: rendering them again for
 * each of thousands of pages was a large part of a build's page making
 * (content/reference/decisions.md, "The shell rendered once").
 */
import type { SiteData } from '../build/site-data.ts';

const memos = new WeakMap<SiteData, Map<string, string>>();

/** The HTML of the part `key` of `site`'s shell: made by `render` the first time it is asked for. */
export async function memoizedShellHtml(site: SiteData, key: string, render: () => Promise<string>): Promise<string> {
  let memo = memos.get(site);
  if (!memo) memos.set(site, (memo = new Map<string, string>()));
  let html = memo.get(key);
  if (html === undefined) memo.set(key, (html = await render()));
  return html;
}
