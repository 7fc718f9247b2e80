import type { ServerRepository } from '../../src/domain/ports.js';
import type { ServerDefinition, ServerRecord } from '../../src/domain/server-definition.js';

/**
 * A server store that records what reached it, for the decorators the daemon puts in
 * front of the real one (src/gateway/*-guard.ts): what they refuse must never arrive.
 */
export function recordingStore(base: ServerDefinition): {
  repository: ServerRepository;
  written: string[];
} {
  const written: string[] = [];
  const record = (definition: Partial<ServerDefinition>) =>
    ({ ...base, ...definition, id: 1, created_at: '', updated_at: '' }) as ServerRecord;
  const repository: ServerRepository = {
    list: () => Promise.resolve([]),
    get: () => Promise.resolve(undefined),
    create: (definition) => (
      written.push(`create ${definition.name}`),
      Promise.resolve(record(definition))
    ),
    update: (name, patch) => (written.push(`update ${name}`), Promise.resolve(record(patch))),
    check: () => undefined,
    remove: (name) => (written.push(`remove ${name}`), Promise.resolve()),
  };
  return { repository, written };
}
