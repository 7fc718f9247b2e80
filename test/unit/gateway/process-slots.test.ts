import { describe, expect, it } from 'vitest';
import type { CofferError } from '../../../src/domain/errors.js';
import { serverDefinitionSchema } from '../../../src/domain/server-definition.js';
import { ProcessSlots } from '../../../src/gateway/process-slots.js';
import { toJsonRpcError } from '../../../src/gateway/rpc-error-mapping.js';
import { statusForCode } from '../../../src/api/error-status.js';

const stdio = serverDefinitionSchema.parse({ name: 'local', transport: 'stdio', command: 'x' });
const remote = serverDefinitionSchema.parse({
  name: 'remote',
  transport: 'http',
  url: 'http://127.0.0.1:1/mcp',
});

function refusal(slots: ProcessSlots): CofferError {
  try {
    slots.acquire(stdio);
  } catch (error) {
    return error as CofferError;
  }
  throw new Error('the slot was granted');
}

describe('process slots', () => {
  it('refuses a process past the limit with a stable code and what to do', () => {
    const slots = new ProcessSlots(2);
    slots.acquire(stdio);
    slots.acquire(stdio);
    const error = refusal(slots);
    expect(error.code).toBe('PROCESS_LIMIT_REACHED');
    expect(error.userMessage).toContain('COFFER_MAX_PROCESSES_PER_SERVER');
    expect(error.userMessage).toContain('close agent sessions');
    expect(toJsonRpcError(error)).toMatchObject({
      code: -32012,
      data: { coffer_code: 'PROCESS_LIMIT_REACHED', server: 'local', limit: 2 },
    });
    expect(statusForCode(error.code)).toBe(503);
  });

  it('gives a slot back once, however often it is released', () => {
    const slots = new ProcessSlots(1);
    const release = slots.acquire(stdio);
    release();
    release();
    expect(slots.inUse('local')).toBe(0);
    const again = slots.acquire(stdio);
    expect(refusal(slots).code).toBe('PROCESS_LIMIT_REACHED');
    again();
  });

  it('counts no slot for a remote server: it spawns nothing', () => {
    const slots = new ProcessSlots(1);
    for (let i = 0; i < 3; i++) slots.acquire(remote);
    expect(slots.inUse('remote')).toBe(0);
  });
});
