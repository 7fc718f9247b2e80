import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/client';
import { SkillsClient } from '@modelcontextprotocol/client/ext/skills';
import { eventually } from '../../support/eventually.js';
import {
  addNodeServer,
  repoRoot,
  startDaemon,
  type RunningDaemon,
} from '../../support/running-daemon.js';
import { transportV2, type ClientPath } from '../../support/v2-transport.js';

/** The SDK v2 server's own skills catalog: git-workflow (two files) and release-notes. */
const skillsServer = join(repoRoot, 'test/fixtures/skills-mcp-server.mjs');
const SKILLS = 'io.modelcontextprotocol/skills';
const GIT_WORKFLOW = 'skill://docs/git-workflow/SKILL.md';
const RELEASE_NOTES = 'skill://docs/release-notes/SKILL.md';

type Era = 'modern' | 'legacy';

async function connect(daemon: RunningDaemon, path: ClientPath, era: Era) {
  const client = new Client(
    { name: `skills ${path} ${era}`, version: '1.0.0' },
    { versionNegotiation: { mode: era === 'modern' ? { pin: '2026-07-28' } : 'legacy' } },
  );
  await client.connect(transportV2(daemon, path));
  return client;
}

/**
 * The Skills extension (SEP-2640) through Coffer, checked by the SDK v2's own SkillsClient,
 * which refuses an entry that breaks the spec's rules and verifies every file it reads
 * against the entry's size and SHA-256 digest: skills of an upstream reach an agent under
 * `skill://<server>/…`, and their files read back through Coffer byte for byte.
 */
describe('skills of an upstream, through Coffer', () => {
  let daemon: RunningDaemon;

  beforeAll(async () => {
    daemon = await startDaemon();
    await addNodeServer(daemon, 'docs', [skillsServer]);
  });

  afterAll(async () => {
    await daemon?.stop();
  });

  it.each([
    ['/mcp', 'modern'],
    ['/mcp', 'legacy'],
    ['shim', 'modern'],
    ['shim', 'legacy'],
  ] as const)('lists, gets and reads them, verified, through %s (%s)', async (path, era) => {
    const client = await connect(daemon, path, era);
    try {
      expect(client.getServerCapabilities()?.extensions?.[SKILLS]).toEqual({
        directoryRead: true,
      });
      const skills = new SkillsClient(client);
      const listing = await skills.list();
      expect(listing.invalid).toEqual([]);
      expect(listing.skills.map((skill) => skill.uri).sort()).toEqual([
        GIT_WORKFLOW,
        RELEASE_NOTES,
      ]);
      const gitWorkflow = listing.skills.find((skill) => skill.uri === GIT_WORKFLOW)!;
      expect(gitWorkflow.frontmatter.name).toBe('git-workflow');
      const guide = await skills.read(gitWorkflow, 'references/GUIDE.md');
      expect(guide).toMatchObject({
        uri: 'skill://docs/git-workflow/references/GUIDE.md',
        verified: true,
        text: '# Guide\n\nOne change per commit.\n',
      });
      const main = await skills.read(gitWorkflow);
      expect(main.verified).toBe(true);
      expect(main.body).toContain('Branch from main');
      const got = await skills.get(RELEASE_NOTES);
      expect(got.skill.resources).toEqual([expect.objectContaining({ uri: RELEASE_NOTES })]);
      const directory = await skills.readDirectory('skill://docs/git-workflow');
      expect(directory.resources.map((child) => child.uri)).toEqual([
        GIT_WORKFLOW,
        'skill://docs/git-workflow/references',
      ]);
    } finally {
      await client.close();
    }
  });

  it('keeps the upstream URIs on the single-server endpoint, and declares what it declares', async () => {
    const client = await connect(daemon, '/servers/docs/mcp', 'modern');
    try {
      expect(client.getServerCapabilities()?.extensions?.[SKILLS]).toEqual({
        directoryRead: true,
      });
      const skills = new SkillsClient(client);
      const { skills: listed } = await skills.list();
      expect(listed.map((skill) => skill.uri).sort()).toEqual([
        'skill://git-workflow/SKILL.md',
        'skill://release-notes/SKILL.md',
      ]);
      const file = await skills.read(listed[0]!);
      expect(file.verified).toBe(true);
    } finally {
      await client.close();
    }
  });

  it('leaves out a skill whose SKILL.md the user disabled, and refuses its read', async () => {
    const client = await connect(daemon, '/mcp', 'modern');
    const off = await daemon.api('POST', '/servers/docs/capabilities', {
      type: 'resource',
      keys: ['skill://release-notes/SKILL.md'],
      enabled: false,
    });
    expect(off.status).toBe(200);
    try {
      const skills = new SkillsClient(client);
      await eventually(async () => {
        const { skills: listed } = await skills.list();
        expect(listed.map((skill) => skill.uri)).toEqual([GIT_WORKFLOW]);
      });
      await expect(client.readResource({ uri: RELEASE_NOTES })).rejects.toThrow(/disabled/);
      await expect(skills.get(RELEASE_NOTES)).rejects.toThrow(/disabled/);
    } finally {
      await daemon.api('POST', '/servers/docs/capabilities', {
        type: 'resource',
        keys: ['skill://release-notes/SKILL.md'],
        enabled: true,
      });
      await client.close();
    }
  });
});
