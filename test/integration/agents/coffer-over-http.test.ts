import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  applyInstall,
  applyUninstall,
  chooseLocation,
  findAgent,
  installSummary,
  narrowerCofferEntries,
  planInstall,
  planUninstall,
  requireConfig,
  type ConfigLocation,
} from '../../../src/agents/index.js';
import { isCofferError } from '../../../src/domain/errors.js';
import { fakeHome, type FakeHome } from './fake-home.js';

/**
 * An agent that already reaches Coffer over HTTP (as the README's second way shows) gets
 * the shim entry from `coffer agents install`: the "coffer" entry is replaced, another
 * entry to the same daemon is named (the agent would list every tool twice) and removed
 * with --replace, and uninstall brings both back.
 */

const PORT = 8003;
const launch = { command: '/usr/bin/node', args: ['/srv/coffer/bin/coffer.js', 'shim'] };
const claude = findAgent('claude-code');
const bearer = { Authorization: 'Bearer abc' };

function entries(servers: Record<string, unknown>): string {
  return `${JSON.stringify({ mcpServers: servers }, null, 2)}\n`;
}

describe('coffer agents install where Coffer is reached over HTTP', () => {
  let home: FakeHome;
  let location: ConfigLocation;
  const write = (text: string) => {
    mkdirSync(dirname(location.path), { recursive: true });
    writeFileSync(location.path, text);
  };
  const names = () => Object.keys(requireConfig(location).document.servers(['mcpServers']) ?? {});
  const plan = (ownPort: number | undefined, replace = false, at = location) => {
    const { document, exists } = requireConfig(at);
    const input = { agent: claude, location: at, document, exists, launch, replace, imports: [] };
    return planInstall(ownPort === undefined ? input : { ...input, ownPort });
  };

  beforeEach(() => {
    home = fakeHome('linux');
    location = chooseLocation(claude, home.context, 'user');
  });
  afterEach(() => home.cleanup());

  it('replaces a "coffer" entry that reaches this daemon, and uninstall puts it back', () => {
    const http = { type: 'http', url: `http://127.0.0.1:${PORT}/mcp`, headers: bearer };
    write(entries({ coffer: http, notes: { command: 'notes-mcp' } }));
    const installed = plan(PORT);
    expect(installed.entry).toBe('update');
    expect(installed.overHttp).toEqual(['coffer']);
    expect(installSummary(installed, launch, false)[0]).toBe(
      `+ update "coffer" entry: /usr/bin/node /srv/coffer/bin/coffer.js shim (it reached Coffer over HTTP; the shim finds the daemon's port and token itself)`,
    );
    applyInstall(home.cofferHome, installed);
    const written = requireConfig(location).document.servers(['mcpServers']) ?? {};
    expect(written['coffer']).toMatchObject({ command: '/usr/bin/node' });

    // The user edits the file: uninstall undoes only its own change, the HTTP entry included.
    write(readFileSync(location.path, 'utf8').replace('"notes"', '"notebook"'));
    const undo = planUninstall(home.cofferHome, claude, location);
    expect(undo.exact).toBe(false);
    expect(undo.restored).toEqual(['coffer']);
    applyUninstall(home.cofferHome, undo);
    const after = requireConfig(location).document.servers(['mcpServers']) ?? {};
    expect(after).toEqual({ notebook: { command: 'notes-mcp' }, coffer: http });
  });

  it('names another entry to this daemon without --replace, and removes it with it', () => {
    const original = entries({
      'coffer-http': { type: 'http', url: `http://localhost:${PORT}/servers/fx/mcp` },
      elsewhere: { type: 'http', url: 'http://127.0.0.1:9999/mcp' },
    });
    write(original);
    const kept = plan(PORT);
    expect(kept.removed).toEqual([]);
    expect(installSummary(kept, launch, true, 'tick the box')).toContain(
      '! "coffer-http" reaches Coffer over HTTP, as the "coffer" entry does, so the agent lists every tool twice (to remove it here: tick the box)',
    );
    const replaced = plan(PORT, true);
    expect(replaced.removed).toEqual(['coffer-http']);
    expect(installSummary(replaced, launch, false)).toContain(
      '- remove "coffer-http" (it reaches Coffer over HTTP: the "coffer" entry serves the same)',
    );
    applyInstall(home.cofferHome, replaced);
    expect(names().sort()).toEqual(['coffer', 'elsewhere']);
    applyUninstall(home.cofferHome, planUninstall(home.cofferHome, claude, location));
    expect(readFileSync(location.path, 'utf8')).toBe(original);
  });

  it('leaves alone an entry to this daemon that the agent has switched off', () => {
    const windsurf = findAgent('windsurf');
    const at = chooseLocation(windsurf, home.context, 'user');
    const off = { serverUrl: `http://127.0.0.1:${PORT}/mcp`, disabled: true };
    mkdirSync(dirname(at.path), { recursive: true });
    writeFileSync(at.path, entries({ 'coffer-http': off }));
    const { document, exists } = requireConfig(at);
    const input = { agent: windsurf, location: at, document, exists, launch, imports: [] };
    const planned = planInstall({ ...input, replace: true, ownPort: PORT });
    expect(planned.overHttp).toEqual([]);
    expect(planned.removed).toEqual([]);
    // Switched on, it would be listed twice beside the shim entry.
    writeFileSync(at.path, entries({ 'coffer-http': { ...off, disabled: false } }));
    const on = requireConfig(at);
    const again = planInstall({ ...input, ...on, replace: true, ownPort: PORT });
    expect(again.removed).toEqual(['coffer-http']);
  });

  it('without a running daemon, leaves HTTP entries alone and says how to replace "coffer"', () => {
    write(entries({ 'coffer-http': { type: 'http', url: `http://127.0.0.1:${PORT}/mcp` } }));
    expect(plan(undefined, true).removed).toEqual([]);
    write(entries({ coffer: { type: 'http', url: `http://127.0.0.1:${PORT}/mcp` } }));
    const refusal = (ownPort: number | undefined) => {
      try {
        plan(ownPort);
      } catch (error) {
        if (isCofferError(error))
          return { code: error.code, message: error.message, hint: error.hint };
      }
      throw new Error('install did not refuse');
    };
    expect(refusal(undefined)).toEqual({
      code: 'SERVER_EXISTS',
      message: `${location.path} already has a server named "coffer" at http://127.0.0.1:${PORT}/mcp, and no Coffer daemon runs to tell whether that is Coffer over HTTP`,
      hint: 'if it is, start Coffer (coffer start) and install again: the shim entry replaces it; otherwise rename or remove that entry in the agent, then install again',
    });
    expect(refusal(PORT + 1).message).toContain(
      `which is not this Coffer daemon (it serves http://127.0.0.1:${PORT + 1}/mcp)`,
    );
  });

  it('names a "coffer" entry in a scope the agent reads first, until it is the shim too', () => {
    const http = { type: 'http', url: `http://127.0.0.1:${PORT}/mcp`, headers: bearer };
    const local = chooseLocation(claude, home.context, 'local');
    // `claude mcp add --transport http coffer …` writes the local scope of the directory.
    write(
      `${JSON.stringify({ projects: { [home.context.cwd]: { mcpServers: { coffer: http } } } })}\n`,
    );
    const desired = claude.shimEntry(launch);
    const found = narrowerCofferEntries(claude, home.context, location, desired);
    expect(found).toEqual([{ location: local, what: `http://127.0.0.1:${PORT}/mcp` }]);
    expect(installSummary({ ...plan(PORT), narrower: found }, launch, false)).toContain(
      `! ${location.path} (projects › ${home.context.cwd} › mcpServers) [local] has a "coffer" entry of its own (http://127.0.0.1:${PORT}/mcp), which comes first where it applies: coffer agents install claude-code --scope local replaces it`,
    );
    // Installed there as well, it is the same entry: nothing left to say.
    applyInstall(home.cofferHome, plan(PORT, false, local));
    expect(narrowerCofferEntries(claude, home.context, location, desired)).toEqual([]);
    // Nothing narrower than the narrowest scope.
    expect(narrowerCofferEntries(claude, home.context, local, { command: 'other' })).toEqual([]);
  });
});
