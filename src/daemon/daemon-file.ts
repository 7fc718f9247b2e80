import { randomBytes } from 'node:crypto';
import { readFileSync, unlinkSync } from 'node:fs';
import type { CofferPaths } from '../config/home.js';
import { writePrivateFile } from '../config/private-files.js';
import {
  parseDaemonRecord,
  serializeDaemonRecord,
  type DaemonRecord,
} from '../discovery/daemon-record.js';

/** 32 URL-safe characters from 24 random bytes (192 bits). */
export function generateToken(): string {
  return randomBytes(24).toString('base64url');
}

/** Writes daemon.json atomically with mode 0600. */
export function writeDaemonFile(paths: CofferPaths, record: DaemonRecord): void {
  writePrivateFile(paths.daemonFile, serializeDaemonRecord(record));
}

/** The record daemon.json holds now; undefined when it is missing or not a record. */
export function readDaemonRecord(paths: CofferPaths): DaemonRecord | undefined {
  let text: string;
  try {
    text = readFileSync(paths.daemonFile, 'utf8');
  } catch {
    return undefined;
  }
  const parsed = parseDaemonRecord(text);
  return parsed.ok ? parsed.record : undefined;
}

/**
 * Removes daemon.json if it is still this daemon's (same token): a newer daemon may
 * have replaced it while this one was shutting down. Returns whether it was removed.
 */
export function removeOwnDaemonFile(paths: CofferPaths, token: string): boolean {
  if (readDaemonRecord(paths)?.token !== token) return false;
  try {
    unlinkSync(paths.daemonFile);
    return true;
  } catch {
    return false;
  }
}
