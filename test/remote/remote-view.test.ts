/** `openRemoteView`: the knowledge view the agent server and `--remote` read a published site through. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LEARN_PARAMETERS } from '../../src/kb/index.ts';
import { RemoteError } from '../../src/remote/fetch-json.ts';
import { openRemoteView } from '../../src/remote/remote-view.ts';
import { closedPortUrl, fakeSiteFiles, serveFake, serveFiles, type FakeServer } from './fake-site.ts';

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const FILES = fakeSiteFiles(
  [
    {
      id: 't',
      title: 'Tee',
      subjects: [
        { slug: 'a', content: 'Alpha' },
        { slug: 'b', content: 'Beta', learned: true },
        { slug: 'h', content: 'Hidden', hidden: true },
      ],
    },
  ],
  { prompt: '<knowledge>\nP\n</knowledge>', description: 'Learn about knowledge base topics and subjects.\n\nAvailable topics:\n- t (**Tee**)', preloaded: { t: ['b'] } },
);

async function serve(): Promise<FakeServer> {
  server = await serveFake(serveFiles(FILES));
  return server;
}

const USAGE = 'Call learn with {"topic": "<topic id or title>"} to list a topic, and add "subjects": "<pattern>" or ["<pattern>", …] to load subjects.';

describe('openRemoteView', () => {
  it('answers learn from raw arguments, checked as the local view checks them', async () => {
    const site = await serve();
    const source = openRemoteView(site.url);
    expect(await source.learn({ topic: 't', subjects: ['', 'h'] })).toEqual({ ok: true, text: 'Hidden' });
    expect(await source.learn({ topic: 't', subjects: '*' })).toEqual({ ok: true, text: '<subject "a">\nAlpha\n</subject>' });
    expect(await source.learn({ topic: 3 })).toEqual({ ok: false, message: `Invalid arguments: "topic" must be a string. ${USAGE}` });
    expect(await source.learn({ topic: 't', extra: 1 })).toEqual({ ok: false, message: `Invalid arguments: unknown argument "extra". ${USAGE}` });
    expect(await source.learn({ topic: 'x' })).toEqual({ ok: false, message: 'Unknown topic "x". Valid topics: t (Tee).' });
  });

  it("gives the knowledge file's prompt and tool, and the catalog", async () => {
    const site = await serve();
    const source = openRemoteView(`${site.url}/`);
    expect(await source.prompt()).toBe('<knowledge>\nP\n</knowledge>');
    expect(await source.tool()).toEqual({
      name: 'learn',
      description: 'Learn about knowledge base topics and subjects.\n\nAvailable topics:\n- t (**Tee**)',
      parameters: LEARN_PARAMETERS,
    });
    expect(await source.index()).toEqual(FILES.get('/kb/index.json'));
  });

  it('fetches the catalog and the knowledge file once per cache period', async () => {
    const site = await serve();
    const source = openRemoteView(site.url);
    await source.learn({ topic: 't' });
    await source.learn({ topic: 't' });
    await source.index();
    await source.prompt();
    await source.tool();
    expect(site.requests).toEqual(['/kb/index.json', '/kb/knowledge.json']);
  });

  it('fetches them again once the cache period is over', async () => {
    const site = await serve();
    // The clock moves only when the test moves it, however long the requests take.
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const source = openRemoteView(site.url, { cacheMs: 50 });
      await source.learn({ topic: 't' });
      vi.advanceTimersByTime(49);
      await source.learn({ topic: 't' });
      expect(site.requests).toEqual(['/kb/index.json']);
      vi.advanceTimersByTime(31);
      await source.learn({ topic: 't' });
      expect(site.requests).toEqual(['/kb/index.json', '/kb/index.json']);
    } finally {
      vi.useRealTimers();
    }
  });

  it('does not keep a failure: the next call asks again', async () => {
    let down = true;
    const files = serveFiles(FILES);
    server = await serveFake((path) => (down ? { status: 404, type: 'text/html', body: '<p>gone</p>' } : files(path)));
    const source = openRemoteView(server.url);
    expect((await source.learn({ topic: 't', subjects: 'a' })).ok).toBe(false);
    down = false;
    expect(await source.learn({ topic: 't', subjects: 'a' })).toEqual({ ok: true, text: 'Alpha' });
  });

  it('answers learn on a site that cannot be read with an error outcome; the other methods reject', async () => {
    const url = await closedPortUrl();
    const source = openRemoteView(url);
    const message = `Cannot reach ${url}/kb/index.json: connection refused (ECONNREFUSED). Check the --remote URL and that the site is up.`;
    expect(await source.learn({ topic: 't' })).toEqual({ ok: false, message });
    await expect(source.index()).rejects.toThrow(new RemoteError(message));
    await expect(source.prompt()).rejects.toThrow(
      new RemoteError(`Cannot reach ${url}/kb/knowledge.json: connection refused (ECONNREFUSED). Check the --remote URL and that the site is up.`),
    );
  });

  it('reads its timeout from SYLLABUS_REMOTE_TIMEOUT_MS', async () => {
    server = await serveFake(() => ({ hang: 'headers' }));
    const source = openRemoteView(server.url, { env: { SYLLABUS_REMOTE_TIMEOUT_MS: '150' } });
    expect(await source.learn({ topic: 't' })).toEqual({
      ok: false,
      message: `No answer from ${server.url}/kb/index.json within 150 ms. Check the --remote URL and that the site is up; on a slow connection, allow more time with SYLLABUS_REMOTE_TIMEOUT_MS (milliseconds).`,
    });
  });

  it('refuses an address that is not an http(s) URL at once', () => {
    expect(() => openRemoteView('file:///srv/site')).toThrow(
      new RemoteError(
        '--remote "file:///srv/site": only http and https sites can be read. Give the address of the site\'s root, like https://kb.example.com/ or https://example.com/docs/.',
      ),
    );
  });
});
