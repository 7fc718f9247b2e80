import { describe, expect, it } from 'vitest';
import type { CapabilityListing } from '../../../src/domain/ports.js';
import type { ServerRecord } from '../../../src/domain/server-definition.js';
import { AdminToolSearch } from '../../../src/gateway/admin-tool-search.js';

const server = (name: string) => ({ name, enabled: true }) as ServerRecord;
const view = (key: string, description: string, enabled = true) => ({
  key,
  enabled,
  definition: { name: key, description, inputSchema: { type: 'object' } },
});

function search(listings: Record<string, CapabilityListing>) {
  const servers = Object.keys(listings).map(server);
  return new AdminToolSearch({
    servers: () => Promise.resolve(servers),
    tools: (name) => Promise.resolve(listings[name]!),
  });
}

describe('admin tool search (REST and CLI)', () => {
  const listings: Record<string, CapabilityListing> = {
    files: {
      status: 'ok',
      items: [
        view('read_file', 'Read the contents of a file'),
        view('delete_file', 'Delete a file for good', false),
        // Known from preferences only (vanished upstream): nothing to search.
        { key: 'old_tool', enabled: true, definition: null },
      ],
    },
    chat: { status: 'ok', items: [view('post_message', 'Post a message to a channel')] },
    broken: {
      status: 'could-not-load',
      error: { code: 'UPSTREAM_UNAVAILABLE', message: 'it crashed' },
      items: [],
    },
  };

  it('finds enabled tools under their callable names, and says what was not searched', async () => {
    const result = await search(listings).search({ query: 'read a file', limit: 8 });
    expect(result.tools[0]).toMatchObject({
      name: 'files__read_file',
      server: 'files',
      tool: 'read_file',
    });
    expect(result.unavailable).toEqual([
      { server: 'broken', code: 'UPSTREAM_UNAVAILABLE', message: 'it crashed' },
    ]);
  });

  it('never finds a disabled tool', async () => {
    const result = await search(listings).search({ query: 'delete a file', limit: 8 });
    expect(result.tools.map((hit) => hit.name)).not.toContain('files__delete_file');
  });

  it('searches one server on request, and refuses one that is not enabled', async () => {
    const searcher = search(listings);
    const result = await searcher.search({ query: 'message file', limit: 8, server: 'chat' });
    expect(result.tools.map((hit) => hit.server)).toEqual(['chat']);
    await expect(searcher.search({ query: 'x', limit: 8, server: 'nope' })).rejects.toMatchObject({
      code: 'SERVER_NOT_FOUND',
    });
  });
});
