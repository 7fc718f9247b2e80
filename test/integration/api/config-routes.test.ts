import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createApiHarness, errorOf, type ApiHarness } from './api-harness.js';

/**
 * POST /config/import with approval policies, over the real store: the plan lists them,
 * the import applies exactly it and tells the live sessions, a file without policies
 * leaves them alone.
 */
let api: ApiHarness;
beforeEach(async () => {
  api = await createApiHarness();
});
afterEach(async () => {
  await api.close();
});

const files = { transport: 'stdio', command: 'node', args: ['server.js'] } as const;

function fileWith(entry: Record<string, unknown>): unknown {
  return { coffer_config: 1, servers: { files: { ...files, ...entry } } };
}

async function importFile(file: unknown, query = ''): Promise<Record<string, unknown>> {
  const response = await api.request('POST', `/config/import${query}`, file);
  expect(response.status).toBe(200);
  return (await response.json()) as Record<string, unknown>;
}

async function stored(): Promise<{ destructive: string; tools: Record<string, string> }> {
  const own = await api.services.policies?.forServer('files');
  return { destructive: own?.destructive ?? '?', tools: Object.fromEntries(own?.tools ?? []) };
}

describe('importing approval policies', () => {
  beforeEach(async () => {
    await importFile(fileWith({}));
    api.services.notifier.events.length = 0;
  });

  it('sets the planned policies, tells the sessions, and a second import changes nothing', async () => {
    const file = fileWith({
      policies: { destructive: 'deny', tools: { rm: 'ask', cat: 'allow' } },
    });
    const dry = await importFile(file, '?dry_run=1');
    expect(dry['changes']).toEqual([
      expect.objectContaining({
        action: 'update',
        policies: [
          { tool: null, policy: 'deny', was: 'ask' },
          { tool: 'rm', policy: 'ask', was: null },
          { tool: 'cat', policy: 'allow', was: null },
        ],
      }),
    ]);
    expect(await stored()).toEqual({ destructive: 'ask', tools: {} });
    expect(api.services.notifier.events).toEqual([]);

    await importFile(file);
    expect(await stored()).toEqual({ destructive: 'deny', tools: { rm: 'ask', cat: 'allow' } });
    expect(api.services.notifier.events).toContain('capabilities:files');

    api.services.notifier.events.length = 0;
    const again = await importFile(file);
    expect(again['changes']).toEqual([
      expect.objectContaining({ action: 'unchanged', policies: [] }),
    ]);
    expect(api.services.notifier.events).toEqual([]);
  });

  it('leaves policies alone when the file has none, and tools the file does not name', async () => {
    await importFile(fileWith({ policies: { destructive: 'allow', tools: { rm: 'deny' } } }));
    const old = await importFile(fileWith({}));
    expect(old['changes']).toEqual([expect.objectContaining({ action: 'unchanged' })]);
    await importFile(fileWith({ policies: { tools: { cat: 'ask' } } }));
    expect(await stored()).toEqual({ destructive: 'allow', tools: { rm: 'deny', cat: 'ask' } });
  });

  it('refuses a bad policy by its field and changes nothing', async () => {
    const response = await api.request(
      'POST',
      '/config/import',
      fileWith({ policies: { destructive: 'deny', tools: { rm: 'sometimes' } } }),
    );
    expect(response.status).toBe(400);
    const error = await errorOf(response);
    expect(error.code).toBe('INVALID_INPUT');
    expect(error.message).toBe(
      'Invalid config: servers.files.policies.tools.rm: a policy must be one of allow, ask, deny',
    );
    expect(await stored()).toEqual({ destructive: 'ask', tools: {} });
  });

  it('exports what it imported', async () => {
    const own = { destructive: 'deny', tools: { cat: 'allow', rm: 'ask' } };
    await importFile(fileWith({ policies: own }));
    const response = await api.request('GET', '/config');
    const file = (await response.json()) as { servers: Record<string, { policies?: unknown }> };
    expect(file.servers['files']?.policies).toEqual(own);
  });
});

describe('importing and exporting shared', () => {
  it('applies shared as a definition change, exports it, and a second import changes nothing', async () => {
    await importFile(fileWith({}));
    api.catalog.forgotten.length = 0;
    const plan = await importFile(fileWith({ shared: true }));
    expect(plan['changes']).toEqual([
      expect.objectContaining({ server: 'files', action: 'update', fields: ['shared'] }),
    ]);
    // What was connected under the old setting is closed: new connections follow it.
    expect(api.catalog.forgotten).toEqual(['files']);
    const { server } = (await (await api.request('GET', '/servers/files')).json()) as {
      server: { shared: boolean };
    };
    expect(server.shared).toBe(true);
    const exported = (await (await api.request('GET', '/config')).json()) as {
      servers: Record<string, { shared?: boolean }>;
    };
    expect(exported.servers['files']?.shared).toBe(true);
    const again = await importFile(exported);
    expect(again['changes']).toEqual([expect.objectContaining({ action: 'unchanged' })]);
  });
});
