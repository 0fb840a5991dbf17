/**
 * `--remote` against sites that fail: every failure is one line on stderr saying what happened and
 * how to fix it, naming the URL, with exit 1 — never a hang, never a stack trace. Run through the
 * command line's `main` in this process (test/cli/fixtures.test.ts proves the bin prints what it does).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openRemoteSite } from '../../src/remote/remote-site.ts';
import { closedPortUrl, fakeSiteFiles, json, NOT_FOUND, serveFake, serveFiles, sha256, type FakeServer, type Reply } from './fake-site.ts';
import { runCliInProcess } from '../helpers/run-cli.ts';

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
  { prompt: '<knowledge>\nP\n</knowledge>', description: 'D', preloaded: { t: ['b'] } },
);

const INDEX = FILES.get('/kb/index.json') as { topics: { subjects: { sha256: string }[] }[] };
const SUBJECT_A = FILES.get('/kb/subjects/t/a.json') as Record<string, unknown>;
const SUBJECT_H = FILES.get('/kb/subjects/t/h.json') as Record<string, unknown>;

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** Serves the valid site, with `override(path, count)` answering first where it returns a reply. */
async function serve(override: (path: string, count: number) => Reply | undefined = () => undefined): Promise<FakeServer> {
  const files = serveFiles(FILES);
  server = await serveFake((path, count) => override(path, count) ?? files(path));
  return server;
}

/** `syllabus learn t a --remote <url>`, by default. */
function learn(url: string, args: string[] = ['t', 'a'], env: Record<string, string> = {}) {
  return runCliInProcess(['learn', ...args, '--remote', url], { env });
}

/**
 * Reads the catalog of the site at `url` as the CLI does, in this process: how many requests that
 * took, and the error. (The server cannot count them: on a busy machine, a timeout may end a
 * request before it reaches the server.)
 */
async function readCatalog(url: string, timeoutMs: number): Promise<{ fetches: number; error: string }> {
  const fetches = vi.spyOn(globalThis, 'fetch');
  try {
    const error = await openRemoteSite(`${url}/`, { timeoutMs })
      .index()
      .then(
        () => 'none',
        (failure: unknown) => (failure instanceof Error ? failure.message : String(failure)),
      );
    return { fetches: fetches.mock.calls.length, error };
  } finally {
    fetches.mockRestore();
  }
}

const fails = (message: string) => ({ code: 1, stdout: '', stderr: `error: ${message}\n` });
const usage = (message: string, command = 'learn') => ({ code: 2, stdout: '', stderr: `error: ${message}\nRun "syllabus ${command} --help" for usage.\n` });

describe('a site that answers', () => {
  it('gives the subject (the baseline the failures below change)', async () => {
    const site = await serve();
    expect(await learn(site.url)).toEqual({ code: 0, stdout: 'Alpha\n', stderr: '' });
    expect(site.requests).toEqual(['/kb/index.json', '/kb/subjects/t/a.json']);
  });

  it("is read below a base path, from addresses computed from the --remote URL (not the index's url fields)", async () => {
    const files = serveFiles(new Map([...FILES].map(([path, value]) => [`/docs${path}`, value])));
    server = await serveFake((path) => files(path));
    expect(await learn(`${server.url}/docs`, ['t', 'h'])).toEqual({ code: 0, stdout: 'Hidden\n', stderr: '' });
    expect(server.requests).toEqual(['/docs/kb/index.json', '/docs/kb/subjects/t/h.json']);
  });
});

describe('network failures', () => {
  it('a site that is down: connection refused', async () => {
    const url = await closedPortUrl();
    expect(await learn(url)).toEqual(fails(`Cannot reach ${url}/kb/index.json: connection refused (ECONNREFUSED). Check the --remote URL and that the site is up.`));
  });

  // In the two timeouts below, the request that never ends is the first one: no other request runs
  // under the same short timeout, so a slow machine cannot make another one time out first.
  it('a site that never answers: the timeout, without a retry', async () => {
    const site = await serve((path) => (path === '/kb/index.json' ? { hang: 'headers' } : undefined));
    const timeout = `No answer from ${site.url}/kb/index.json within 300 ms. Check the --remote URL and that the site is up; on a slow connection, allow more time with SYLLABUS_REMOTE_TIMEOUT_MS (milliseconds).`;
    expect(await learn(site.url, ['t', 'a'], { SYLLABUS_REMOTE_TIMEOUT_MS: '300' })).toEqual(fails(timeout));
    expect(await readCatalog(site.url, 300)).toEqual({ fetches: 1, error: timeout });
  });

  it('a body that stops half-way: the timeout covers the body too, without a retry', async () => {
    const site = await serve((path) => (path === '/kb/index.json' ? { hang: 'body' } : undefined));
    const timeout = `No answer from ${site.url}/kb/index.json within 300 ms. Check the --remote URL and that the site is up; on a slow connection, allow more time with SYLLABUS_REMOTE_TIMEOUT_MS (milliseconds).`;
    expect(await learn(site.url, ['t', 'a'], { SYLLABUS_REMOTE_TIMEOUT_MS: '300' })).toEqual(fails(timeout));
    expect(await readCatalog(site.url, 300)).toEqual({ fetches: 1, error: timeout });
  });

  it('a connection closed without an answer is tried once more', async () => {
    const site = await serve((path, count) => (path === '/kb/index.json' && count === 1 ? { destroy: true } : undefined));
    expect(await learn(site.url)).toEqual({ code: 0, stdout: 'Alpha\n', stderr: '' });
    expect(site.requests).toEqual(['/kb/index.json', '/kb/index.json', '/kb/subjects/t/a.json']);
  });

  it('a connection closed twice is an error', async () => {
    const site = await serve((path) => (path === '/kb/index.json' ? { destroy: true } : undefined));
    expect(await learn(site.url)).toEqual(
      fails(`Cannot reach ${site.url}/kb/index.json: the connection was closed (UND_ERR_SOCKET). Check the --remote URL and that the site is up.`),
    );
    expect(site.requests).toEqual(['/kb/index.json', '/kb/index.json']);
  });
});

describe('HTTP errors', () => {
  it('500 and then the answer: tried once more, and it works', async () => {
    const site = await serve((path, count) => (path === '/kb/index.json' && count === 1 ? { status: 500, type: 'text/plain', body: 'oops' } : undefined));
    expect(await learn(site.url)).toEqual({ code: 0, stdout: 'Alpha\n', stderr: '' });
    expect(site.requests).toEqual(['/kb/index.json', '/kb/index.json', '/kb/subjects/t/a.json']);
  });

  it('503 and then the answer: tried once more, and it works', async () => {
    const site = await serve((path, count) => (path === '/kb/subjects/t/a.json' && count === 1 ? { status: 503, type: 'text/plain', body: 'busy' } : undefined));
    expect(await learn(site.url)).toEqual({ code: 0, stdout: 'Alpha\n', stderr: '' });
    expect(site.requests).toEqual(['/kb/index.json', '/kb/subjects/t/a.json', '/kb/subjects/t/a.json']);
  });

  it('500 every time: an error after the retry', async () => {
    const site = await serve((path) => (path === '/kb/index.json' ? { status: 500, type: 'text/plain', body: 'oops' } : undefined));
    expect(await learn(site.url)).toEqual(
      fails(`${site.url}/kb/index.json answered HTTP 500 Internal Server Error. The server failed, twice; try again later, or tell whoever hosts the site.`),
    );
    expect(site.requests).toEqual(['/kb/index.json', '/kb/index.json']);
  });

  it('502 every time on a subject', async () => {
    const site = await serve((path) => (path === '/kb/subjects/t/a.json' ? { status: 502, type: 'text/html', body: '<h1>Bad gateway</h1>' } : undefined));
    expect(await learn(site.url)).toEqual(
      fails(`${site.url}/kb/subjects/t/a.json answered HTTP 502 Bad Gateway. The server failed, twice; try again later, or tell whoever hosts the site.`),
    );
  });

  it('403: not retried, and the fix is the URL', async () => {
    const site = await serve((path) => (path === '/kb/index.json' ? { status: 403, type: 'text/plain', body: 'no' } : undefined));
    expect(await learn(site.url)).toEqual(fails(`${site.url}/kb/index.json answered HTTP 403 Forbidden. Check the --remote URL, and that the site is published there.`));
    expect(site.requests).toEqual(['/kb/index.json']);
  });

  it('404 of the catalog: is this a Syllabus site?', async () => {
    server = await serveFake(() => NOT_FOUND);
    expect(await learn(`${server.url}/wiki`)).toEqual(
      fails(
        `${server.url}/wiki/ does not look like a Syllabus site: ${server.url}/wiki/kb/index.json was not found (HTTP 404). Give --remote the address of the site's root, with its base path if it has one (the address below which kb/index.json is).`,
      ),
    );
  });

  it('404 of the knowledge file (prompt): is this a Syllabus site?', async () => {
    server = await serveFake(() => NOT_FOUND);
    expect(await runCliInProcess(['prompt', '--remote', server.url])).toEqual(
      fails(
        `${server.url}/ does not look like a Syllabus site: ${server.url}/kb/knowledge.json was not found (HTTP 404). Give --remote the address of the site's root, with its base path if it has one (the address below which kb/index.json is).`,
      ),
    );
  });

  it('404 of a subject the catalog lists: an incomplete upload', async () => {
    const site = await serve((path) => (path === '/kb/subjects/t/a.json' ? NOT_FOUND : undefined));
    expect(await learn(site.url)).toEqual(
      fails(
        `${site.url}/kb/subjects/t/a.json was not found (HTTP 404), but the catalog (${site.url}/kb/index.json) lists the subject. The upload is incomplete or mixes builds; republish the whole site.`,
      ),
    );
  });
});

describe('answers that are not the JSON expected', () => {
  it('an HTML page (by content type)', async () => {
    const site = await serve((path) => (path === '/kb/index.json' ? { type: 'text/html; charset=utf-8', body: '<!doctype html><p>Welcome</p>' } : undefined));
    expect(await learn(site.url)).toEqual(
      fails(`${site.url}/kb/index.json is an HTML page, not JSON. Check the --remote URL: it must be the root address of a site built by syllabus.`),
    );
  });

  it('an HTML page served as JSON (by its first character)', async () => {
    const site = await serve((path) => (path === '/kb/subjects/t/a.json' ? { type: 'application/json', body: '\n  <html><body>Sign in</body></html>' } : undefined));
    expect(await learn(site.url)).toEqual(
      fails(`${site.url}/kb/subjects/t/a.json is an HTML page, not JSON. Check the --remote URL: it must be the root address of a site built by syllabus.`),
    );
  });

  it('truncated JSON', async () => {
    const site = await serve((path) => (path === '/kb/index.json' ? { body: '{"version": 1, "site": {"title": "Fake", ' } : undefined));
    expect(await learn(site.url)).toEqual(
      fails(
        `${site.url}/kb/index.json is not valid JSON (Expected double-quoted property name in JSON at position 41 (line 1 column 42)). The file is cut off or damaged; try again, or rebuild and republish the site.`,
      ),
    );
  });

  it('JSON that fails the schema names the path of the first problem', async () => {
    const broken = structuredClone(INDEX);
    broken.topics[0]!.subjects[0]!.sha256 = 'nope';
    const site = await serve((path) => (path === '/kb/index.json' ? json(broken) : undefined));
    expect(await learn(site.url)).toEqual(
      fails(
        `${site.url}/kb/index.json is not a Syllabus catalog: at topics[0].subjects[0].sha256, Invalid string: must match pattern /^[0-9a-f]{64}$/. The site was built by an incompatible syllabus, or its files were changed; rebuild it with this one.`,
      ),
    );
  });

  it('a subject file without content', async () => {
    const { content: _dropped, ...withoutContent } = SUBJECT_A;
    const site = await serve((path) => (path === '/kb/subjects/t/a.json' ? json(withoutContent) : undefined));
    expect(await learn(site.url)).toEqual(
      fails(
        `${site.url}/kb/subjects/t/a.json is not a Syllabus subject file: at content, Invalid input: expected string, received undefined. The site was built by an incompatible syllabus, or its files were changed; rebuild it with this one.`,
      ),
    );
  });

  it('a format version other than 1', async () => {
    const site = await serve((path) => (path === '/kb/index.json' ? json({ ...INDEX, version: 2 }) : undefined));
    expect(await learn(site.url)).toEqual(
      fails(`${site.url}/kb/index.json is in format version 2; this syllabus reads version 1. Use a syllabus that reads version 2, or rebuild the site with this one.`),
    );
  });
});

describe('subjects verified by their sha256', () => {
  it('content that does not match its own sha256', async () => {
    const site = await serve((path) => (path === '/kb/subjects/t/a.json' ? json({ ...SUBJECT_A, content: 'Alpha, edited' }) : undefined));
    expect(await learn(site.url)).toEqual(
      fails(
        `${site.url}/kb/subjects/t/a.json: the content does not match its sha256 (${sha256('Alpha')}; the content's is ${sha256('Alpha, edited')}). The file was changed or damaged after the build; rebuild and republish the site.`,
      ),
    );
  });

  it('a hidden subject is verified against its own sha256 too', async () => {
    const site = await serve((path) => (path === '/kb/subjects/t/h.json' ? json({ ...SUBJECT_H, content: 'Hidden!' }) : undefined));
    expect(await learn(site.url, ['t', 'h'])).toEqual(
      fails(
        `${site.url}/kb/subjects/t/h.json: the content does not match its sha256 (${sha256('Hidden')}; the content's is ${sha256('Hidden!')}). The file was changed or damaged after the build; rebuild and republish the site.`,
      ),
    );
  });

  it('a subject from another build than the catalog', async () => {
    const newer = { ...SUBJECT_A, content: 'Alpha 2', sha256: sha256('Alpha 2') };
    const site = await serve((path) => (path === '/kb/subjects/t/a.json' ? json(newer) : undefined));
    expect(await learn(site.url)).toEqual(
      fails(
        `${site.url}/kb/subjects/t/a.json has sha256 ${sha256('Alpha 2')}, but the catalog (${site.url}/kb/index.json) lists ${sha256('Alpha')}. The site's files come from different builds (a partial upload, or a cache still serving old files); republish the whole site, or try again later.`,
      ),
    );
  });

  it('a subject file that holds another subject', async () => {
    const site = await serve((path) => (path === '/kb/subjects/t/a.json' ? json({ ...SUBJECT_H }) : undefined));
    expect(await learn(site.url)).toEqual(fails(`${site.url}/kb/subjects/t/a.json holds the subject "t/h", not "t/a". The site's files do not agree; rebuild and republish it.`));
  });
});

describe('usage errors (exit 2)', () => {
  it('--remote with --config', async () => {
    expect(await runCliInProcess(['learn', 't', '--remote', 'http://127.0.0.1:9/', '--config', 'kb.toml'])).toEqual(
      usage('--remote and --config cannot be used together: --remote reads a published site, --config local files. Give one of them.'),
    );
  });

  it('a --remote value that is not a URL', async () => {
    expect(await runCliInProcess(['prompt', '--remote', 'kb.example.com'])).toEqual(
      usage('--remote "kb.example.com" is not a URL. Give the address of the site\'s root, like https://kb.example.com/ or https://example.com/docs/.', 'prompt'),
    );
  });

  it('a --remote URL that is not http(s)', async () => {
    expect(await runCliInProcess(['schema', '--remote', 'ftp://kb.example.com/'])).toEqual(
      usage(
        '--remote "ftp://kb.example.com/": only http and https sites can be read. Give the address of the site\'s root, like https://kb.example.com/ or https://example.com/docs/.',
        'schema',
      ),
    );
  });

  it('a --remote URL with a query', async () => {
    expect(await runCliInProcess(['learn', 't', '--remote', 'https://kb.example.com/?page=1'])).toEqual(
      usage(
        '--remote "https://kb.example.com/?page=1" has a query or a fragment. Give the address of the site\'s root, like https://kb.example.com/ or https://example.com/docs/.',
      ),
    );
  });

  it('a profile on a site without profiles', async () => {
    const site = await serve();
    expect(await runCliInProcess(['prompt', '--profile', 'rev', '--remote', site.url])).toEqual(usage('Unknown profile "rev". The site has no profiles.', 'prompt'));
  });

  it('a malformed SYLLABUS_REMOTE_TIMEOUT_MS', async () => {
    expect(await runCliInProcess(['learn', 't', '--remote', 'http://127.0.0.1:9/'], { env: { SYLLABUS_REMOTE_TIMEOUT_MS: 'soon' } })).toEqual(
      usage('SYLLABUS_REMOTE_TIMEOUT_MS="soon" is not a number of milliseconds. Set it to a positive integer, such as 10000, or unset it.'),
    );
  });
});
