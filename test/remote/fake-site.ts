/**
 * A hand-written Syllabus site on a local `node:http` server: valid endpoints built from a small
 * description, and a server whose every answer a test can replace (errors, delays, hangs).
 */
import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { FORMAT_VERSION, KnowledgeFileSchema, SiteIndexSchema, SubjectFileSchema, type KnowledgeFile } from '../../src/kb/publish/endpoint-schemas.ts';
import { addressOf, encodeAddressSegment, LEARN_PARAMETERS } from '../../src/kb/index.ts';

/** A subject of a hand-written site. */
export interface FakeSubject {
  slug: string;
  content: string;
  hidden?: boolean;
  learned?: boolean;
}

/** A topic of a hand-written site. */
export interface FakeTopic {
  id: string;
  title?: string;
  introduction?: string;
  description?: string;
  subjects: FakeSubject[];
}

/** What a hand-written site's knowledge files say. */
export interface FakeKnowledge {
  prompt: string | null;
  description: string | null;
  /** Per topic id, the pre-loaded slugs (their content is taken from the topic's subjects). */
  preloaded: Record<string, string[]>;
}

export function sha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/**
 * The endpoints of a site, by path from the domain root: `/kb/index.json`, `/kb/knowledge.json`,
 * one knowledge file per profile and one JSON per subject (hidden ones too). Each is checked
 * against its schema, so that tests of errors start from a valid site.
 */
export function fakeSiteFiles(topics: FakeTopic[], knowledge: FakeKnowledge, profiles: Record<string, FakeKnowledge> = {}): Map<string, unknown> {
  const files = new Map<string, unknown>();
  const entry = (topic: string, s: FakeSubject) => ({
    slug: s.slug,
    title: s.slug.split('/').pop()!,
    summary: '',
    format: 'markdown' as const,
    language: null,
    skipped: null,
    path: `${s.slug}.md`,
    bytes: Buffer.byteLength(s.content),
    tokens: 1,
    sha256: sha256(s.content),
    learned: s.learned ?? false,
    url: `/${topic}/${addressOf(s.slug)}/`,
    markdown: `/${topic}/${addressOf(s.slug)}.md`,
    json: `/kb/subjects/${topic}/${addressOf(s.slug)}.json`,
  });
  const knowledgeFile = (k: FakeKnowledge, profile: string | null): KnowledgeFile => ({
    version: FORMAT_VERSION,
    profile,
    prompt: k.prompt,
    tool: k.description === null ? null : { name: 'learn', description: k.description, parameters: LEARN_PARAMETERS },
    tokens: k.prompt === null ? 0 : 7,
    topics: topics.map((t) => ({
      id: t.id,
      preloaded: (k.preloaded[t.id] ?? []).map((slug) => ({ slug, content: t.subjects.find((s) => s.slug === slug)!.content })),
    })),
  });
  const index = {
    version: FORMAT_VERSION,
    site: { title: 'Fake', description: null, url: null, base: '/' },
    knowledge: {
      json: '/kb/knowledge.json',
      tokens: 7,
      profiles: Object.fromEntries(Object.keys(profiles).map((name) => [name, `/kb/knowledge/${encodeAddressSegment(name)}.json`])),
    },
    addresses: {
      page: '/{topic}/{address}/',
      markdown: '/{topic}/{address}.md',
      subject: '/kb/subjects/{topic}/{address}.json',
      topic: '/kb/topics/{topic}.json',
      encoding: 'content/reference/site-addresses.md',
    },
    endpoints: { indexText: '/kb/index.txt', llms: '/llms.txt', llmsFull: '/llms-full.txt', keywords: '/kb/keywords.json', schemas: '/kb/schema/' },
    topics: topics.map((t) => ({
      id: t.id,
      title: t.title ?? null,
      introduction: t.introduction ?? null,
      description: t.description ?? null,
      url: `/${t.id}/`,
      json: `/kb/topics/${t.id}.json`,
      tokens: 1,
      subjects: t.subjects.filter((s) => !s.hidden).map((s) => entry(t.id, s)),
    })),
  };
  files.set('/kb/index.json', SiteIndexSchema.parse(index));
  files.set('/kb/knowledge.json', KnowledgeFileSchema.parse(knowledgeFile(knowledge, null)));
  for (const [name, k] of Object.entries(profiles)) files.set(`/kb/knowledge/${encodeAddressSegment(name)}.json`, KnowledgeFileSchema.parse(knowledgeFile(k, name)));
  for (const t of topics) {
    for (const s of t.subjects) {
      const file = { version: FORMAT_VERSION, topic: t.id, address: addressOf(s.slug), hidden: s.hidden ?? false, ...entry(t.id, s), content: s.content };
      files.set(`/kb/subjects/${t.id}/${addressOf(s.slug)}.json`, SubjectFileSchema.parse(file));
    }
  }
  return files;
}

/** What the server answers to one request. */
export type Reply =
  | { status?: number; statusText?: string; type?: string; body: string }
  /** Never answer. */
  | { hang: 'headers' }
  /** Send the headers and part of the body, then nothing more. */
  | { hang: 'body' }
  /** Close the connection without an answer. */
  | { destroy: true };

/** JSON, as a static host serves it. */
export function json(value: unknown): Reply {
  return { type: 'application/json; charset=utf-8', body: `${JSON.stringify(value, null, 2)}\n` };
}

/** The 404 page of a static host. */
export const NOT_FOUND: Reply = { status: 404, type: 'text/html; charset=utf-8', body: '<!doctype html><title>Not found</title>' };

/** Answers with `files` (by decoded path), 404 for anything else. */
export function serveFiles(files: ReadonlyMap<string, unknown>): (path: string) => Reply {
  return (path) => (files.has(path) ? json(files.get(path)) : NOT_FOUND);
}

/** A running fake site. */
export interface FakeServer {
  /** The origin, `http://127.0.0.1:PORT`, without a trailing slash. */
  url: string;
  /** Every request's decoded path, in arrival order. */
  requests: string[];
  /** The largest number of requests that were in flight at once. */
  maxInFlight: number;
  close(): Promise<void>;
}

/**
 * Serves `respond(path, count)` on 127.0.0.1 at a free port, `count` being how many times that
 * path was asked for so far (1 the first time). A reply may be delayed by returning a promise.
 */
export async function serveFake(respond: (path: string, count: number) => Reply | Promise<Reply>): Promise<FakeServer> {
  const counts = new Map<string, number>();
  let inFlight = 0;
  const state = { requests: [] as string[], maxInFlight: 0 };
  const server = http.createServer((request, response) => {
    const path = decodeURIComponent(new URL(request.url ?? '/', 'http://localhost').pathname);
    state.requests.push(path);
    const count = (counts.get(path) ?? 0) + 1;
    counts.set(path, count);
    inFlight++;
    state.maxInFlight = Math.max(state.maxInFlight, inFlight);
    response.on('close', () => inFlight--);
    void Promise.resolve(respond(path, count)).then((reply) => {
      if ('destroy' in reply) {
        request.socket.destroy();
      } else if ('hang' in reply) {
        if (reply.hang === 'body') {
          response.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
          response.write('{"version": 1,');
        }
      } else {
        const headers = { 'content-type': reply.type ?? 'application/json; charset=utf-8' };
        if (reply.statusText === undefined) response.writeHead(reply.status ?? 200, headers);
        else response.writeHead(reply.status ?? 200, reply.statusText, headers);
        response.end(reply.body);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    get requests() {
      return state.requests;
    },
    get maxInFlight() {
      return state.maxInFlight;
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** An address where nothing listens: a port that was free a moment ago. */
export async function closedPortUrl(): Promise<string> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}
