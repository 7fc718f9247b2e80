import type { JsonObject } from '../domain/ports.js';
import type { CapabilityKind } from './capability-kinds.js';

/** How a tool runs as a task, as it declares (`execution.taskSupport`, absent: never). */
export function taskSupportOf(tool: JsonObject): 'required' | 'optional' | 'forbidden' {
  const execution = tool['execution'];
  if (execution === null || typeof execution !== 'object') return 'forbidden';
  const support = (execution as JsonObject)['taskSupport'];
  return support === 'required' || support === 'optional' ? support : 'forbidden';
}

/**
 * A tool with `execution.taskSupport: "required"`: the spec has such a tool refuse any
 * call that is not task-augmented, so a client that declared no `tasks` could never use it.
 */
export function needsTasks(kind: CapabilityKind, item: JsonObject): boolean {
  return kind.type === 'tool' && taskSupportOf(item) === 'required';
}

/** Whether a client that can (or cannot) run tasks is shown `item` (docs/TASKS.md). */
export function hiddenFromClient(
  kind: CapabilityKind,
  item: JsonObject,
  clientRunsTasks: boolean,
): boolean {
  return needsTasks(kind, item) && !clientRunsTasks;
}
