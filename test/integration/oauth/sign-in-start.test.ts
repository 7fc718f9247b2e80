import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CofferError } from '../../../src/domain/errors.js';
import { remoteDefinition, testSignInFlow } from './oauth-test-flow.js';

/** A loopback port nothing listens on: taken, then given back. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/** `coffer mcp login` of a remote server that is down says that, not "fetch failed". */
describe('a sign-in to a server nothing answers for', () => {
  let home: string;
  beforeAll(() => {
    home = mkdtempSync(join(tmpdir(), 'coffer-oauth-start-'));
  });
  afterAll(() => rmSync(home, { recursive: true, force: true }));

  it('says it could not be reached and why, with what to check', async () => {
    const url = `http://127.0.0.1:${await closedPort()}/mcp`;
    const flow = testSignInFlow(home, remoteDefinition('down', url));
    const failure = await flow.start('down').catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(CofferError);
    expect(failure).toMatchObject({
      code: 'UPSTREAM_UNAVAILABLE',
      message:
        'Could not start the sign-in to "down": it could not be reached: nothing is listening there (connection refused)',
      hint: 'check that it is running and its URL (`coffer mcp show down`)',
    });
  });
});
