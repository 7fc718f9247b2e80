import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addEverything } from '../../support/everything-server.js';
import { startDaemon, type RunningDaemon } from '../../support/running-daemon.js';

/**
 * server-everything's `instructions` through Coffer, read by a real SDK client: verbatim
 * on its own endpoint, under its name on /mcp once Coffer has heard them, and kept in
 * server-instructions.json for the daemon's next run.
 */
describe('what a server says about its use reaches the client', () => {
  let daemon: RunningDaemon;
  let direct: string | undefined;

  beforeAll(async () => {
    daemon = await startDaemon();
    await addEverything(daemon);
  });

  afterAll(async () => {
    await daemon?.stop();
  });

  it('passes them on verbatim on /servers/everything/mcp', async () => {
    const client = await daemon.client({ server: 'everything' });
    direct = client.getInstructions();
    expect(direct).toContain('Everything Server');
  });

  it('gathers them on /mcp under the server name, and keeps them for the next run', async () => {
    const client = await daemon.client();
    const merged = client.getInstructions();
    expect(merged).toContain(`## everything\n\n${direct?.trim()}`);
    const kept = JSON.parse(readFileSync(join(daemon.home, 'server-instructions.json'), 'utf8'));
    expect(kept).toEqual({ servers: { everything: direct } });
  });
});
