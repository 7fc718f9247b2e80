import type { ToolsMode } from '../domain/tools-mode.js';
import type { GatewayContext } from './gateway-context.js';
import type { SessionScope } from './session.js';
import { StatelessService } from './stateless-service.js';

/**
 * The stateless (2026-07-28) services of the daemon, one per endpoint scope and tools
 * mode, made on first use and kept until the daemon stops. Admin changes reach them as
 * they reach the live sessions.
 */
export class StatelessServices {
  private readonly services = new Map<string, StatelessService>();

  constructor(private readonly context: GatewayContext) {}

  get(scope: SessionScope, toolsMode?: ToolsMode): StatelessService {
    const key = JSON.stringify([scope.kind === 'single' ? scope.server : '', toolsMode ?? '']);
    let service = this.services.get(key);
    if (service === undefined) {
      service = new StatelessService({
        context: this.context,
        scope,
        ...(toolsMode === undefined ? {} : { toolsMode }),
      });
      this.services.set(key, service);
    }
    return service;
  }

  capabilitiesChanged(server?: string): void {
    for (const service of this.services.values()) service.capabilitiesChanged(server);
  }

  async serverRedefined(server: string): Promise<void> {
    await Promise.all([...this.services.values()].map((s) => s.serverChanged(server)));
  }

  async closeAll(): Promise<void> {
    const all = [...this.services.values()];
    this.services.clear();
    await Promise.allSettled(all.map((service) => service.close()));
  }
}
