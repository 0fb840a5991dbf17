/**
 * The remote `learn` tool against hand-written sites: the exact-equality-first rule of
 * content/reference/patterns.md for hidden subjects (which the catalog does not list), the
 * requests it takes, and how many run at once.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { openRemoteView } from '../../src/remote/remote-view.ts';
import { fakeSiteFiles, serveFake, serveFiles, type FakeServer, type FakeTopic, type Reply } from './fake-site.ts';

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const TOPIC: FakeTopic = {
  id: 't',
  title: 'Tee',
  description: 'About tees.',
  subjects: [
    { slug: 'a', content: 'Alpha' },
    { slug: 'b', content: 'Beta', learned: true },
    { slug: 'c', content: 'Gamma' },
    { slug: 'h', content: 'Hidden', hidden: true },
    { slug: 'md', content: 'Listed md' },
    { slug: '.md', content: 'Hidden .md', hidden: true },
    { slug: 'x*', content: 'A hidden subject named x*', hidden: true },
    { slug: 'xa', content: 'Xa' },
  ],
};

/** Serves a site of `topics` (each subject file answered once `hold` resolves, if given) and returns a learn function on it. */
async function site(topics: FakeTopic[] = [TOPIC], hold?: (path: string) => Promise<void>) {
  const files = serveFiles(fakeSiteFiles(topics, { prompt: null, description: null, preloaded: {} }));
  server = await serveFake(async (path): Promise<Reply> => {
    if (hold && path.startsWith('/kb/subjects/')) await hold(path);
    return files(path);
  });
  const view = openRemoteView(`${server.url}/`, { timeoutMs: 5000 });
  const learn = (topic: string, patterns: string[]) => view.learn({ topic, subjects: patterns });
  return { server, learn };
}

describe('listing', () => {
  it('lists the catalog: available and learned apart, hidden nowhere, and asks for nothing else', async () => {
    const { server, learn } = await site();
    expect(await learn('TEE', [])).toEqual({
      ok: true,
      text: '# Topic: Tee\n\nAbout tees.\n\n## Available subjects:\n\n- a\n- c\n- md\n- xa\n\nUse the `learn` tool with the `subjects` argument to learn specific subjects.\n\n## Already learned (in system prompt):\n\n- b',
    });
    expect(server.requests).toEqual(['/kb/index.json']);
  });

  it("an unknown topic is the learn tool's error", async () => {
    const { learn } = await site();
    expect(await learn('nope', ['a'])).toEqual({ ok: false, message: 'Unknown topic "nope". Valid topics: t (Tee).' });
  });
});

describe('exact equality before globbing, hidden subjects included', () => {
  it('a listed slug is fetched without probing', async () => {
    const { server, learn } = await site();
    expect(await learn('t', ['a'])).toEqual({ ok: true, text: 'Alpha' });
    expect(server.requests).toEqual(['/kb/index.json', '/kb/subjects/t/a.json']);
  });

  it('a hidden slug is found at its address, bare', async () => {
    const { server, learn } = await site();
    expect(await learn('t', ['h'])).toEqual({ ok: true, text: 'Hidden' });
    expect(server.requests).toEqual(['/kb/index.json', '/kb/subjects/t/h.json']);
  });

  it('a dotted pattern tries itself, then without leading dots', async () => {
    const { server, learn } = await site();
    expect(await learn('t', ['.h'])).toEqual({ ok: true, text: 'Hidden' });
    expect([...server.requests].sort()).toEqual(['/kb/index.json', '/kb/subjects/t/h.json', '/kb/subjects/t/~2Eh.json']);
  });

  it('a hidden slug equal to the pattern wins over a listed slug equal to the pattern without its dot', async () => {
    const { learn } = await site();
    expect(await learn('t', ['.md'])).toEqual({ ok: true, text: 'Hidden .md' });
    expect(await learn('t', ['md'])).toEqual({ ok: true, text: 'Listed md' });
  });

  it('a hidden subject named like a glob is selected exactly, not as a glob', async () => {
    const { server, learn } = await site();
    expect(await learn('t', ['x*'])).toEqual({ ok: true, text: 'A hidden subject named x*' });
    expect(server.requests).toEqual(['/kb/index.json', '/kb/subjects/t/x~2A.json']);
  });

  it('a glob that names nothing exactly matches listed subjects only, skipping learned ones: blocks', async () => {
    const { server, learn } = await site();
    expect(await learn('t', ['?'])).toEqual({ ok: true, text: '<subject "a">\nAlpha\n</subject>\n\n<subject "c">\nGamma\n</subject>' });
    expect(server.requests.slice(0, 2)).toEqual(['/kb/index.json', '/kb/subjects/t/~3F.json']);
    expect(server.requests.slice(2).sort()).toEqual(['/kb/subjects/t/a.json', '/kb/subjects/t/c.json']);
  });

  it('the core orders and de-duplicates: pattern order, each slug once at its first place', async () => {
    const { learn } = await site();
    expect(await learn('t', ['h', 'c', '?', 'h'])).toEqual({
      ok: true,
      text: '<subject "h">\nHidden\n</subject>\n\n<subject "c">\nGamma\n</subject>\n\n<subject "a">\nAlpha\n</subject>',
    });
  });

  it("nothing selected is the learn tool's error; a slug with an empty segment is not asked for", async () => {
    const { server, learn } = await site();
    expect(await learn('t', ['zz', 'a//b'])).toEqual({
      ok: false,
      message: 'No subjects in topic "t" match "zz", "a//b". Call learn with only the topic to list its subjects.',
    });
    expect(server.requests).toEqual(['/kb/index.json', '/kb/subjects/t/zz.json']);
  });
});

describe('requests at once', () => {
  it('loads many subjects at most 8 at a time', async () => {
    const many: FakeTopic = { id: 'm', subjects: Array.from({ length: 20 }, (_, i) => ({ slug: `s${String(i).padStart(2, '0')}`, content: `S${i}` })) };
    // Each of the 20 subjects is answered once 8 are asked for (or all that remain), so that a busy
    // machine cannot make the requests come one at a time, then 40 ms later, for a ninth to show
    // if one was started. (The lookup of a hidden subject named "*" comes first, alone.)
    let release = (): void => {};
    let eightAsked = new Promise<void>((resolve) => (release = resolve));
    let waiting = 0;
    let asked = 0;
    const hold = async (path: string): Promise<void> => {
      if (!/^\/kb\/subjects\/m\/s\d+\.json$/.test(path)) return;
      const batch = eightAsked;
      waiting++;
      asked++;
      if (waiting === 8 || asked === many.subjects.length) {
        release();
        waiting = 0;
        eightAsked = new Promise<void>((resolve) => (release = resolve));
      }
      await batch;
      await new Promise((resolve) => setTimeout(resolve, 40));
    };
    const { server, learn } = await site([many], hold);
    const outcome = await learn('m', ['*']);
    expect(outcome).toEqual({ ok: true, text: many.subjects.map((s) => `<subject "${s.slug}">\n${s.content}\n</subject>`).join('\n\n') });
    expect(server.maxInFlight).toBe(8);
    expect(server.requests.length).toBe(22);
  });
});
