import type { JsonObject } from '../domain/ports.js';
import type { CapabilityKind } from './capability-kinds.js';

/**
 * A tool with `execution.taskSupport: "required"`: the spec has such a tool refuse any
 * call that is not task-augmented, so a client that declared no `tasks` could never use it.
 */
export function needsTasks(kind: CapabilityKind, item: JsonObject): boolean {
  if (kind.type !== 'tool') return false;
  const execution = item['execution'];
  return (
    execution !== null &&
    typeof execution === 'object' &&
    (execution as JsonObject)['taskSupport'] === 'required'
  );
}

/** Whether a client that can (or cannot) run tasks is shown `item` (docs/TASKS.md). */
export function hiddenFromClient(
  kind: CapabilityKind,
  item: JsonObject,
  clientRunsTasks: boolean,
): boolean {
  return needsTasks(kind, item) && !clientRunsTasks;
}
