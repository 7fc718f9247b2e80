import type { CapabilityType } from '../domain/capability.js';
import type { JsonObject } from '../domain/ports.js';

/**
 * How each capability type is listed and keyed upstream. The key is the upstream's own
 * identifier, the identity preferences are stored under (ADR-004).
 */
export interface CapabilityKind {
  readonly type: CapabilityType;
  readonly listMethod: string;
  /** The array field of the list result. */
  readonly field: string;
  /** The server capability that must be declared for the list to exist. */
  readonly serverCapability: 'tools' | 'prompts' | 'resources';
  readonly keyOf: (item: JsonObject) => string | undefined;
}

const stringField =
  (name: string) =>
  (item: JsonObject): string | undefined =>
    typeof item[name] === 'string' ? item[name] : undefined;

export const capabilityKinds: Readonly<Record<CapabilityType, CapabilityKind>> = {
  tool: {
    type: 'tool',
    listMethod: 'tools/list',
    field: 'tools',
    serverCapability: 'tools',
    keyOf: stringField('name'),
  },
  prompt: {
    type: 'prompt',
    listMethod: 'prompts/list',
    field: 'prompts',
    serverCapability: 'prompts',
    keyOf: stringField('name'),
  },
  resource: {
    type: 'resource',
    listMethod: 'resources/list',
    field: 'resources',
    serverCapability: 'resources',
    keyOf: stringField('uri'),
  },
  resource_template: {
    type: 'resource_template',
    listMethod: 'resources/templates/list',
    field: 'resourceTemplates',
    serverCapability: 'resources',
    keyOf: stringField('uriTemplate'),
  },
};

/** The list methods a client may call, mapped to their kind. */
export const kindByListMethod: ReadonlyMap<string, CapabilityKind> = new Map(
  Object.values(capabilityKinds).map((kind) => [kind.listMethod, kind]),
);

/** The notifications that say a list changed: a session relists and tells its client. */
export const LIST_CHANGED: readonly string[] = [
  'notifications/tools/list_changed',
  'notifications/prompts/list_changed',
  'notifications/resources/list_changed',
];
