import { describe, expect, it } from 'vitest';
import { GuardedActivity, UNCHECKED_TEXT } from '../../../src/daemon/guarded-activity.js';
import type { ActivityEntry, GuardedSecrets } from '../../../src/domain/ports.js';
import type { KnownSecret } from '../../../src/domain/secret-scan.js';
import { SecretGuard } from '../../../src/gateway/secret-guard.js';
import { silentLogger } from '../../../src/observability/logger.js';

const token: KnownSecret = {
  name: 'vault/env/TOKEN',
  value: 'tok-0123456789-abc',
  owners: ['vault'],
};
const MARKER = '[redacted: secret vault/env/TOKEN]';

function entry(key: string, client = 'agent'): ActivityEntry {
  return {
    at: '2026-12-07T00:00:00.000Z',
    trace_id: null,
    session_id: 's1',
    client_name: client,
    client_version: '1.0',
    server: null,
    capability_type: 'tool',
    capability_key: key,
    action: 'tools/call',
    duration_ms: 1,
    outcome: 'error',
    error_code: 'CAPABILITY_NOT_FOUND',
  };
}

interface Answer {
  readonly promise: Promise<KnownSecret[]>;
  resolve(secrets: KnownSecret[]): void;
  reject(error: Error): void;
}

function answer(): Answer {
  let resolve: Answer['resolve'] = () => undefined;
  let reject: Answer['reject'] = () => undefined;
  const promise = new Promise<KnownSecret[]>((yes, no) => {
    resolve = yes;
    reject = no;
  });
  return { promise, resolve, reject };
}

/** A guard over a store whose reads answer when the test says (or fail), and what is passed on. */
function harness() {
  const reads = [answer(), answer()];
  let asked = 0;
  const secrets: GuardedSecrets = { known: () => reads[asked++]?.promise ?? Promise.resolve([]) };
  const guard = new SecretGuard({ secrets });
  const recorded: ActivityEntry[] = [];
  const activity = new GuardedActivity({
    sink: { record: (item) => recorded.push(item) },
    guard,
    logger: silentLogger(),
  });
  return { reads, guard, recorded, activity };
}

describe('GuardedActivity', () => {
  it('redacts the names a client chose, in order, once the secrets are read', async () => {
    const { reads, recorded, activity } = harness();
    activity.record(entry(token.value, `agent ${token.value}`));
    activity.record(entry(`x__${token.value}`));
    expect(recorded).toEqual([]);
    reads[0]?.resolve([token]);
    await activity.settled();
    // Built now: the next entry goes through at once, after the ones that waited.
    activity.record(entry('plain'));
    expect(recorded.map((item) => item.capability_key)).toEqual([MARKER, `x__${MARKER}`, 'plain']);
    expect(recorded[0]?.client_name).toBe(`agent ${MARKER}`);
    expect(JSON.stringify(recorded)).not.toContain(token.value);
  });

  it('writes none of a client’s words when the secrets cannot be read', async () => {
    const { reads, recorded, activity } = harness();
    activity.record(entry(token.value));
    reads[0]?.reject(new Error('keychain locked'));
    await activity.settled();
    expect(recorded).toMatchObject([
      { capability_key: UNCHECKED_TEXT, client_name: UNCHECKED_TEXT },
    ]);
  });

  it('reads the secrets again after they change', async () => {
    const { reads, guard, recorded, activity } = harness();
    activity.record(entry('first'));
    reads[0]?.resolve([]);
    await activity.settled();
    guard.invalidate();
    activity.record(entry(token.value));
    reads[1]?.resolve([token]);
    await activity.settled();
    expect(recorded.map((item) => item.capability_key)).toEqual(['first', MARKER]);
  });
});
