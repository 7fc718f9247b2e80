import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Clock } from '../../../src/domain/ports.js';
import { openDatabase, type Store } from '../../../src/store/database.js';
import { createRepositories, type Repositories } from '../../../src/store/repositories.js';

/** A clock the test moves by hand, so timestamps are exact. */
export class FakeClock implements Clock {
  private current: number;

  constructor(start = '2026-01-01T00:00:00.000Z') {
    this.current = Date.parse(start);
  }

  now(): Date {
    return new Date(this.current);
  }

  iso(): string {
    return this.now().toISOString();
  }

  advance(ms: number): void {
    this.current += ms;
  }
}

export function makeTempDir(): string {
  return mkdtempSync(join(tmpdir(), 'coffer-store-'));
}

export function removeTempDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

export interface TempStore {
  readonly dir: string;
  readonly path: string;
  readonly store: Store;
  readonly repos: Repositories;
  readonly clock: FakeClock;
  dispose(): Promise<void>;
}

/** A real file database, migrated, in its own temporary directory. */
export async function openTempStore(clock = new FakeClock()): Promise<TempStore> {
  const dir = makeTempDir();
  const path = join(dir, 'coffer.db');
  const store = await openDatabase(path);
  return {
    dir,
    path,
    store,
    repos: createRepositories(store, clock),
    clock,
    async dispose() {
      await store.close();
      removeTempDir(dir);
    },
  };
}
