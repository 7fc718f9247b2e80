import { createHash } from 'node:crypto';
import { canonicalJson } from './canonical-json.js';
import { CofferError } from './errors.js';
import type { JsonObject } from './ports/upstream-port.js';

/**
 * Tool-definition pinning (issue 20, rug-pull protection). When the user first allows a
 * tool, what it said it does is pinned: the fields a model reads, hashed as canonical
 * JSON. A later definition with another hash is a change the user has not seen: the tool
 * is held back (not listed, calls refused) until they review and accept it.
 */

/** The fields of a tool that tell a model what it does; the rest (`_meta`, …) may churn. */
export const PINNED_FIELDS = [
  'name',
  'title',
  'description',
  'inputSchema',
  'outputSchema',
  'annotations',
] as const;

/** A tool's pinned fields, absent ones left out. */
export function pinnedDefinition(tool: Readonly<JsonObject>): JsonObject {
  const picked: JsonObject = {};
  for (const field of PINNED_FIELDS) if (tool[field] !== undefined) picked[field] = tool[field];
  return picked;
}

/** sha256 (hex) of the canonical JSON of the pinned fields. */
export function definitionHash(tool: Readonly<JsonObject>): string {
  return createHash('sha256')
    .update(canonicalJson(pinnedDefinition(tool)))
    .digest('hex');
}

/** What the hot path needs of a pin: its hash and the change already recorded, if any. */
export interface PinState {
  readonly hash: string;
  /** The hash of a different definition seen since; null when none is waiting. */
  readonly pending_hash: string | null;
}

/** One listed tool, as the pin check sees it. */
export interface ListedTool {
  readonly key: string;
  readonly hash: string;
  readonly definition: JsonObject;
  readonly enabled: boolean;
}

/** What a list means for the pins of its server. */
export interface PinPlan {
  /** Enabled tools never pinned: pin them now (the user allowed them). */
  readonly pin: readonly ListedTool[];
  /** Tools whose definition differs from the pin and from the change already recorded. */
  readonly changed: readonly ListedTool[];
  /** Tools back to their pinned definition while a change was recorded: forget the change. */
  readonly reverted: readonly string[];
  /** Tools that differ from their pin: not listed, calls refused. */
  readonly held: ReadonlySet<string>;
}

/**
 * Compares one list with the pins. A tool without a pin is pinned only when enabled: a
 * tool the server's auto-enable setting left disabled is pinned once the user enables it
 * (at its next list). A disabled tool with a pin is still compared, so a change made while
 * it was off is held when it comes back on.
 */
export function planPins(
  tools: readonly ListedTool[],
  pins: ReadonlyMap<string, PinState>,
): PinPlan {
  const pin: ListedTool[] = [];
  const changed: ListedTool[] = [];
  const reverted: string[] = [];
  const held = new Set<string>();
  for (const tool of tools) {
    const known = pins.get(tool.key);
    if (known === undefined) {
      if (tool.enabled) pin.push(tool);
    } else if (known.hash === tool.hash) {
      if (known.pending_hash !== null) reverted.push(tool.key);
    } else {
      held.add(tool.key);
      if (known.pending_hash !== tool.hash) changed.push(tool);
    }
  }
  return { pin, changed, reverted, held };
}

/** A tool held back: the definition the user allowed, and the one the server lists now. */
export interface HeldTool {
  readonly key: string;
  readonly pinned: JsonObject;
  readonly pinned_at: string;
  readonly changed: JsonObject;
  readonly detected_at: string;
}

/**
 * One pin as the pin snapshot keeps it (daemon/pin-snapshot.ts), to be written back into
 * a new database when the old one was damaged: the allowed definition, and the change
 * waiting for review, if any.
 */
export interface PinRecord {
  readonly key: string;
  readonly hash: string;
  readonly definition: JsonObject;
  readonly pinned_at: string;
  readonly pending?: {
    readonly hash: string;
    readonly definition: JsonObject;
    readonly detected_at: string;
  };
}

/** The command that shows a server's held-back tools and accepts them. */
export function reviewCommand(server: string): string {
  return `coffer mcp review ${server}`;
}

/** The refusal of a call to a held-back tool: names the command that reviews it. */
export function toolChanged(server: string, key: string): CofferError {
  return new CofferError(
    'TOOL_CHANGED',
    `Tool "${key}" of ${server} changed its definition since you allowed it, and is held back`,
    {
      hint: `review the change and accept it with \`${reviewCommand(server)}\``,
      data: { server },
    },
  );
}
