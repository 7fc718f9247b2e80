import { describe, expect, it } from 'vitest';
import { mintTaskId, serverOfTaskId, taskHoldUntil } from '../../../src/domain/task-ids.js';

const entropy = '0123456789abcdef0123456789abcdef';

describe('task ids', () => {
  it('name their server and round-trip', () => {
    const id = mintTaskId('my-server', entropy);
    expect(id).toBe(`my-server__${entropy}`);
    expect(serverOfTaskId(id)).toBe('my-server');
  });

  it('are not minted from weak entropy, and foreign ids name no server', () => {
    expect(() => mintTaskId('fx', 'up-1')).toThrow(/32 hex digits/);
    expect(serverOfTaskId('786512e2-9e0d-44bd-8f29-789f320fe840')).toBeUndefined();
    expect(serverOfTaskId('fx__up-1')).toBeUndefined();
    expect(serverOfTaskId(`__${entropy}`)).toBeUndefined();
  });

  it('are held for their ttl, capped, and for the cap when the ttl is unlimited', () => {
    expect(taskHoldUntil(1_000, 60_000, 3_600_000)).toBe(61_000);
    expect(taskHoldUntil(1_000, 86_400_000, 3_600_000)).toBe(3_601_000);
    expect(taskHoldUntil(1_000, null, 3_600_000)).toBe(3_601_000);
    expect(taskHoldUntil(1_000, -5, 3_600_000)).toBe(3_601_000);
  });
});
