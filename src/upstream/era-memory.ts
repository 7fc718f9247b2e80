/**
 * The era each upstream was last found to speak, per definition (a redefined server is
 * asked again), for the daemon's life: the probe costs one round trip once, and later
 * connects open the way the server answered.
 */
import type { ServerDefinition } from '../domain/server-definition.js';
import type { ProtocolEra } from './protocol-era.js';

export class EraMemory {
  private readonly eras = new Map<string, ProtocolEra>();

  get(definition: ServerDefinition): ProtocolEra | undefined {
    return this.eras.get(definitionKey(definition));
  }

  remember(definition: ServerDefinition, era: ProtocolEra): void {
    this.eras.set(definitionKey(definition), era);
  }
}

/** What makes two definitions the same upstream (the same process, the same endpoint). */
export function definitionKey(definition: ServerDefinition): string {
  const { name, transport, command, args, env, cwd, url, headers } = definition;
  return JSON.stringify([name, transport, command, args, env, cwd, url, headers]);
}
