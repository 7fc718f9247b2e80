import { readFileSync } from 'node:fs';
import { expect } from 'vitest';
import type { RunningDaemon } from '../../support/running-daemon.js';
import { rawRequest } from './raw-request.js';

/** Resident memory of a process in kB, from /proc (Linux, where CI runs). */
export function rssKb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const match = /^VmRSS:\s+(\d+) kB$/m.exec(status);
  if (match?.[1] === undefined) throw new Error(`no VmRSS for pid ${pid}`);
  return Number(match[1]);
}

/**
 * Generous on purpose: a fuzz batch sends a few dozen bodies of up to a few MB, which V8
 * may keep around until a later GC; a leak that buffers every body grows far past this.
 */
export const RSS_GROWTH_BOUND_KB = 256 * 1024;

/** The daemon is still up and serving: /healthz, then an authenticated status. */
export async function expectDaemonServing(daemon: RunningDaemon): Promise<void> {
  const health = await rawRequest({
    port: daemon.port,
    method: 'GET',
    path: '/healthz',
    headers: { host: `127.0.0.1:${daemon.port}` },
  });
  expect(health.status).toBe(200);
  const status = await rawRequest({
    port: daemon.port,
    method: 'GET',
    path: '/api/v1/status',
    headers: { host: `127.0.0.1:${daemon.port}`, authorization: `Bearer ${daemon.token}` },
  });
  expect(status.status).toBe(200);
  expect((JSON.parse(status.body) as { pid: number }).pid).toBe(daemon.pid);
}

let canaries = 0;

/**
 * Prototype pollution shows as behaviour: the fuzzers send payloads that would put
 * `args`, `env`, `enabled`, … on Object.prototype (directly, or through
 * constructor.prototype for a naive deep merge). If any stuck, a server registered
 * without those fields would inherit them instead of the schema's defaults.
 */
export async function expectNoPrototypePollution(daemon: RunningDaemon): Promise<void> {
  const name = `canary-${++canaries}`;
  const created = await daemon.api('POST', '/servers', {
    name,
    transport: 'stdio',
    command: 'true',
  });
  expect(created.status).toBe(201);
  expect(created.body.server).toMatchObject({
    name,
    args: [],
    env: {},
    headers: {},
    secret_env: [],
    secret_headers: [],
    enabled: true,
    auto_enable_new_capabilities: true,
    shared: false,
  });
  expect(created.body.server).not.toHaveProperty('polluted');
  const removed = await daemon.api('DELETE', `/servers/${name}`);
  expect(removed.status).toBe(204);
}
