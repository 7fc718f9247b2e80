import { describe, expect, it } from 'vitest';
import type { UpstreamConnector } from '../../../src/domain/ports.js';
import type { ServerDefinition } from '../../../src/domain/server-definition.js';
import { fakePool } from './gateway-fakes.js';

const definition = {
  name: 'slow',
  transport: 'stdio',
  command: 'x',
} as unknown as ServerDefinition;

describe('a closed UpstreamPool', () => {
  it('aborts a connect in progress and starts no new one', async () => {
    const signals: AbortSignal[] = [];
    const connector: UpstreamConnector = {
      connect: (_definition, context) => {
        if (context.signal !== undefined) signals.push(context.signal);
        return new Promise((_, reject) => {
          if (context.signal?.aborted === true) reject(new Error('aborted'));
          context.signal?.addEventListener('abort', () => reject(new Error('aborted')));
        });
      },
    };
    const pool = fakePool(connector);
    const first = pool.get(definition);
    await pool.closeAll();
    await expect(first).rejects.toThrow('aborted');
    expect(signals[0]?.aborted).toBe(true);
    // A list retrying after the abort must not spawn again.
    await expect(pool.get(definition)).rejects.toThrow('session closed');
    expect(signals).toHaveLength(1);
  });
});
