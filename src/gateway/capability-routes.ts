import type { CapabilityType } from '../domain/capability.js';
import { disabledCode, serverDisabled, toggleFlag } from '../domain/capability.js';
import { CofferError } from '../domain/errors.js';
import type { PreferenceRepository } from '../domain/ports.js';
import { toolChanged } from '../domain/tool-pin.js';
import { invalidHeaderTool } from './header-exclusions.js';
import type { ListingCatalog } from './lean-mode.js';
import type { Namespace } from './namespace.js';
import type { ResolvedRoute, Route } from './session-catalog.js';

export interface CapabilityRoutesDeps {
  readonly catalog: ListingCatalog;
  readonly preferences: PreferenceRepository;
  readonly namespace: Namespace;
  /** Whether `name` is a server this session serves (to name it on a refusal). */
  readonly serves: (name: string) => Promise<boolean>;
  /** Whether `name` is a registered server the user disabled; absent: none is known. */
  readonly disabled?: (name: string) => Promise<boolean>;
}

/**
 * From an exposed name or URI to the upstream that owns it, with the user's preference
 * checked on the way, and a tool held back for a changed definition refused (issue 20):
 * the call path is the boundary, not the list. Refusals carry the
 * server in `data.server` when it is known, for the client and the activity row.
 */
export class CapabilityRoutes {
  constructor(private readonly deps: CapabilityRoutesDeps) {}

  async route(type: CapabilityType, exposed: string): Promise<ResolvedRoute> {
    const found = await this.deps.catalog.resolve(type, exposed);
    if (found === undefined) throw await this.notFound(type, exposed);
    const enabled =
      found.enabled ?? (await this.deps.preferences.isEnabled(found.server.name, type, found.key));
    if (enabled === false) {
      throw new CofferError(
        disabledCode[type],
        `${capitalised(label(type))} "${exposed}" is disabled`,
        {
          hint: `enable it with \`coffer mcp enable ${found.server.name} ${toggleFlag[type]} ${found.key}\``,
          data: { server: found.server.name },
        },
      );
    }
    if (found.held) throw toolChanged(found.server.name, found.key);
    if (found.invalid !== undefined)
      throw invalidHeaderTool(found.server.name, found.key, found.invalid);
    return found;
  }

  /** A completion ref/resource names a template, or else a plain resource. */
  async routeTemplate(exposed: string): Promise<Route> {
    const found = await this.deps.catalog.resolve('resource_template', exposed);
    return found ?? this.route('resource', exposed);
  }

  private async notFound(type: CapabilityType, exposed: string): Promise<CofferError> {
    const parsed = this.deps.namespace.parse(type, exposed);
    // A name of a server switched off: say so, and how to switch it on.
    if (parsed !== undefined && (await this.deps.disabled?.(parsed.server)) === true)
      return serverDisabled(parsed.server);
    const server =
      parsed !== undefined && (await this.deps.serves(parsed.server)) ? parsed.server : undefined;
    // SEP-2164: a resource that is not there names the URI asked for in `data.uri`.
    const data = {
      ...(server === undefined ? {} : { server }),
      ...(type === 'resource' ? { uri: exposed } : {}),
    };
    return new CofferError('CAPABILITY_NOT_FOUND', `Unknown ${label(type)} "${exposed}"`, {
      hint: 'list them again: the upstream may have changed, be disabled or be unreachable',
      ...(Object.keys(data).length === 0 ? {} : { data }),
    });
  }
}

function label(type: CapabilityType): string {
  return type === 'resource_template' ? 'resource template' : type;
}

function capitalised(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
