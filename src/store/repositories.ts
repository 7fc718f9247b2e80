import { systemClock, type Clock } from '../domain/ports.js';
import { SqliteActivityRepository } from './activity-repository.js';
import type { Store } from './database.js';
import { SqlitePreferenceRepository } from './preference-repository.js';
import { SqliteServerRepository } from './server-repository.js';
import { SqliteToolPinRepository } from './tool-pin-repository.js';
import { SqliteToolPolicyRepository } from './tool-policy-repository.js';
import { SqliteUpstreamProcessRepository } from './upstream-process-repository.js';

/** Everything the daemon wires from the store: one repository per domain port. */
export interface Repositories {
  readonly servers: SqliteServerRepository;
  readonly preferences: SqlitePreferenceRepository;
  readonly policies: SqliteToolPolicyRepository;
  readonly pins: SqliteToolPinRepository;
  readonly activity: SqliteActivityRepository;
  readonly upstreamProcesses: SqliteUpstreamProcessRepository;
}

/** Timestamps written by the repositories come from `clock` (tests inject a fake one). */
export function createRepositories(store: Store, clock: Clock = systemClock): Repositories {
  return {
    servers: new SqliteServerRepository(store.db, clock),
    preferences: new SqlitePreferenceRepository(store.db, clock),
    policies: new SqliteToolPolicyRepository(store.db, clock),
    pins: new SqliteToolPinRepository(store.db, clock),
    activity: new SqliteActivityRepository(store, clock),
    upstreamProcesses: new SqliteUpstreamProcessRepository(store.db, clock),
  };
}
