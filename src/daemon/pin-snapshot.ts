import { existsSync, readFileSync } from 'node:fs';
import { z } from 'zod';
import type { DaemonEvent, PinArchive } from '../domain/ports.js';
import type { PinRecord } from '../domain/tool-pin.js';

/**
 * `tool-pins-snapshot.json`: every tool pin (docs/SECURITY.md, "Tool-definition pinning"),
 * kept beside `config-snapshot.json` by a ConfigSnapshot of its own, so that a damaged
 * database restored from the configuration snapshot keeps its pins too. Without them,
 * every tool would be pinned again at its next listing, and a tool that changed in between
 * would be trusted as it is, not held for review (docs/RECOVERY.md).
 */
export const PIN_SNAPSHOT_VERSION = 1;

/**
 * Whether an event may have changed the pins: a removal (its pins go with it) or an admin
 * action (a review accepted, a server redefined or imported). First pins and recorded
 * changes are told by ToolPins itself; a list that changed and pinned nothing is not a
 * reason to read every pin again.
 */
export function pinsFollow(event: DaemonEvent): boolean {
  if (event.type === 'server.removed') return true;
  return event.type === 'activity.recorded' && event.entry.capability_type === 'admin';
}

/** What the file holds: the pins by server name, each server's by tool. */
export async function pinSnapshotOf(archive: PinArchive): Promise<unknown> {
  return { version: PIN_SNAPSHOT_VERSION, servers: Object.fromEntries(await archive.all()) };
}

const definition = z.record(z.string(), z.unknown());
const record = z.object({
  key: z.string(),
  hash: z.string().regex(/^[0-9a-f]{64}$/),
  definition,
  pinned_at: z.string(),
  pending: z
    .object({ hash: z.string().regex(/^[0-9a-f]{64}$/), definition, detected_at: z.string() })
    .optional(),
});
const snapshot = z.object({
  version: z.literal(PIN_SNAPSHOT_VERSION),
  servers: z.record(z.string(), z.array(record)),
});

/** The pins a restore writes back, or why there are none to write. */
export type ReadPins =
  { readonly pins: ReadonlyMap<string, readonly PinRecord[]> } | { readonly missing: string };

/**
 * The snapshot's pins. A file that is not there (a home last used by a Coffer without
 * one) or cannot be read is no reason to keep the daemon from starting: the restore goes
 * on without pins, and says so.
 */
export function readPinSnapshot(path: string): ReadPins {
  if (!existsSync(path)) return { missing: 'there is no tool-pins-snapshot.json' };
  try {
    const parsed = snapshot.parse(JSON.parse(readFileSync(path, 'utf8')) as unknown);
    const pins = new Map<string, readonly PinRecord[]>();
    for (const [server, records] of Object.entries(parsed.servers))
      pins.set(server, records as PinRecord[]);
    return { pins };
  } catch {
    return { missing: 'tool-pins-snapshot.json cannot be read' };
  }
}
