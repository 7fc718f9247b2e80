/**
 * What the fault tests share: the built fixture's path, registering it as an upstream, reading
 * a tool's JSON text, and finding real processes by a marker in their command line (Linux /proc).
 */
import { readdirSync, readFileSync } from 'node:fs';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { expect } from 'vitest';
import { fixtureServer as fixturePath, type RunningDaemon } from '../../support/running-daemon.js';

/** Registers the fixture as a stdio upstream named `name`, with extra fixture flags. */
export async function registerFixture(
  daemon: RunningDaemon,
  name: string,
  args: readonly string[] = [],
): Promise<void> {
  const response = await daemon.api('POST', '/servers', {
    name,
    transport: 'stdio',
    command: process.execPath,
    args: [fixturePath, ...args],
  });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each tool's own JSON
type ToolJson = any;

/** Calls a tool and parses its first text content as JSON. */
export async function callJson(
  client: Client,
  name: string,
  args: Record<string, unknown> = {},
): Promise<ToolJson> {
  const result = await client.callTool({ name, arguments: args });
  const [first] = result.content as { text: string }[];
  return JSON.parse(first!.text);
}

/** Pids of live processes whose command line contains `marker`. */
export function pidsWith(marker: string): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .flatMap((entry) => {
      try {
        const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
        return cmdline.includes(marker) ? [Number(entry)] : [];
      } catch {
        return [];
      }
    });
}
