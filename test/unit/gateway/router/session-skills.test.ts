import { afterEach, describe, expect, it, vi } from 'vitest';
import type { JsonObject } from '../../../../src/domain/ports.js';
import { startSession, type Harness } from './session-harness.js';
import type { Script } from './fake-upstream.js';

const SKILLS = 'io.modelcontextprotocol/skills';
const servesSkills: JsonObject = { resources: {}, extensions: { [SKILLS]: {} } };

/** A skill entry as an upstream lists it: its SKILL.md and its other files. */
function skill(name: string, files: string[] = []): JsonObject {
  const uri = `skill://${name}/SKILL.md`;
  return {
    uri,
    frontmatter: { name, description: `The ${name} skill` },
    resources: [uri, ...files.map((file) => `skill://${name}/${file}`)].map((each) => ({
      uri: each,
      digest: `sha256:${'0'.repeat(64)}`,
      size: 10,
    })),
  };
}

/** Two pages of skills, the second after the cursor "2". */
const pagedSkills: Script = {
  'skills/list': (params) =>
    params?.['cursor'] === '2'
      ? { skills: [skill('b')], ttlMs: 60_000, cacheScope: 'public' }
      : { skills: [skill('a', ['references/GUIDE.md'])], nextCursor: '2' },
  'skills/get': (params) => ({ skill: skill(String(params?.['uri']).split('/')[2] ?? '') }),
  'resources/directory/read': (params) => ({
    resources: [
      { name: 'SKILL.md', uri: `${String(params?.['uri'])}/SKILL.md` },
      { name: 'references', uri: `${String(params?.['uri'])}/references` },
    ],
  }),
};

/** One skill, one whose files are not enumerated, and an entry without a URI (dropped). */
const docsSkills = [skill('c'), { ...skill('d'), resources: 'dynamic' }, { uri: 5 }];

let harness: Harness | undefined;
afterEach(async () => {
  vi.useRealTimers();
  await harness?.session.close();
  harness = undefined;
});

async function request(method: string, params?: JsonObject): Promise<JsonObject> {
  return harness!.client.request(method, method, params);
}

const listedUris = (answer: JsonObject): string[] =>
  ((answer['result'] as JsonObject)['skills'] as JsonObject[]).map((each) => each['uri'] as string);

describe('the Skills extension through a session', () => {
  it('declares the extension, with directory reads', async () => {
    harness = await startSession({});
    const result = await harness.initialize();
    expect(result['capabilities']).toMatchObject({
      extensions: { [SKILLS]: { directoryRead: true } },
    });
  });

  it("lists every page of each skill server's skills under skill://<server>/, asking no other server", async () => {
    harness = await startSession(
      { kb: pagedSkills, docs: { 'skills/list': () => ({ skills: docsSkills }) }, plain: {} },
      { kind: 'aggregated' },
      {},
      { kb: servesSkills, docs: servesSkills },
    );
    await harness.initialize();
    const answer = await request('skills/list');
    expect(listedUris(answer)).toEqual([
      'skill://kb/a/SKILL.md',
      'skill://kb/b/SKILL.md',
      'skill://docs/c/SKILL.md',
      'skill://docs/d/SKILL.md',
    ]);
    const skills = (answer['result'] as JsonObject)['skills'] as JsonObject[];
    expect(skills[3]?.['resources']).toBe('dynamic');
    const [first] = skills;
    // Digests, sizes and the frontmatter describe the bytes, which pass unchanged.
    expect(first).toEqual({
      ...skill('a', ['references/GUIDE.md']),
      uri: 'skill://kb/a/SKILL.md',
      resources: [
        expect.objectContaining({ uri: 'skill://kb/a/SKILL.md', size: 10 }),
        expect.objectContaining({ uri: 'skill://kb/a/references/GUIDE.md' }),
      ],
    });
    // Coffer's own cache hints: the user may switch a server off at any moment.
    expect(answer['result']).toMatchObject({ ttlMs: 0, cacheScope: 'private' });
    expect(answer['result']).not.toHaveProperty('nextCursor');
    expect(harness.upstreams.latest('kb').calledWith('skills/list')).toHaveLength(2);
    expect(harness.upstreams.latest('plain').calledWith('skills/list')).toHaveLength(0);
  });

  it('leaves out a server that cannot list, and a skill whose SKILL.md the user disabled', async () => {
    const failing: Script = {
      'skills/list': () => Promise.reject(new Error('upstream broke')),
    };
    harness = await startSession(
      { kb: pagedSkills, broken: failing },
      { kind: 'aggregated' },
      {},
      { kb: servesSkills, broken: servesSkills },
    );
    harness.preferences.disable('kb', 'resource', 'skill://a/SKILL.md');
    await harness.initialize();
    expect(listedUris(await request('skills/list'))).toEqual(['skill://kb/b/SKILL.md']);
  });

  it('answers without a server that has not listed by the list deadline', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const silent: Script = { 'skills/list': () => new Promise<JsonObject>(() => undefined) };
    harness = await startSession(
      { kb: pagedSkills, slow: silent },
      { kind: 'aggregated' },
      { listTimeoutMs: 5_000 },
      { kb: servesSkills, slow: servesSkills },
    );
    await harness.initialize();
    const answer = request('skills/list');
    await vi.waitFor(() => expect(harness!.upstreams.latest('slow').calls).not.toHaveLength(0));
    await vi.advanceTimersByTimeAsync(5_000);
    expect(listedUris(await answer)).toEqual(['skill://kb/a/SKILL.md', 'skill://kb/b/SKILL.md']);
  });

  it('refuses a cursor it never gave', async () => {
    harness = await startSession({});
    await harness.initialize();
    const answer = await request('skills/list', { cursor: 'abc' });
    expect(answer['error']).toMatchObject({
      code: -32602,
      message: expect.stringContaining('list again without one'),
    });
  });

  it('sends skills/get and directory reads to the owner under its own URI, and exposes the answer', async () => {
    harness = await startSession(
      { kb: pagedSkills },
      { kind: 'aggregated' },
      {},
      { kb: servesSkills },
    );
    await harness.initialize();
    const got = await request('skills/get', { uri: 'skill://kb/b/SKILL.md' });
    expect((got['result'] as JsonObject)['skill']).toMatchObject({
      uri: 'skill://kb/b/SKILL.md',
      resources: [{ uri: 'skill://kb/b/SKILL.md' }],
    });
    const directory = await request('resources/directory/read', { uri: 'skill://kb/a' });
    expect((directory['result'] as JsonObject)['resources']).toEqual([
      { name: 'SKILL.md', uri: 'skill://kb/a/SKILL.md' },
      { name: 'references', uri: 'skill://kb/a/references' },
    ]);
    const upstream = harness.upstreams.latest('kb');
    expect(upstream.calledWith('skills/get')[0]?.params).toMatchObject({
      uri: 'skill://b/SKILL.md',
    });
    expect(upstream.calledWith('resources/directory/read')[0]?.params).toMatchObject({
      uri: 'skill://a',
    });
    // A skill's entry is got as a prompt is, an activity row; a directory read is a list.
    expect(harness.activity.map((row) => [row.action, row.server, row.capability_key])).toEqual([
      ['skills/get', 'kb', 'skill://b/SKILL.md'],
    ]);
  });
});
