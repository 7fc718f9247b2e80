import type { Kysely } from 'kysely';
import type { Clock, ToolPolicyRepository } from '../domain/ports.js';
import {
  DEFAULT_DESTRUCTIVE_POLICY,
  type ServerPolicies,
  type ToolPolicy,
} from '../domain/tool-policy.js';
import type { Database } from './schema.js';
import { serverIdOf } from './server-rows.js';
import { guarded } from './sqlite-errors.js';

/** The user's approval policies, by server name at the port and by server id in the tables. */
export class SqliteToolPolicyRepository implements ToolPolicyRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
  ) {}

  forServer(server: string): Promise<ServerPolicies> {
    return guarded({ server }, async () => {
      const id = await serverIdOf(this.db, server);
      const [own, tools] = await Promise.all([
        this.db
          .selectFrom('mcp_server_policies')
          .select('destructive_policy')
          .where('resource_id', '=', id)
          .executeTakeFirst(),
        this.db
          .selectFrom('mcp_tool_policies')
          .select(['tool_key', 'policy'])
          .where('resource_id', '=', id)
          .execute(),
      ]);
      return {
        destructive: own?.destructive_policy ?? DEFAULT_DESTRUCTIVE_POLICY,
        tools: new Map(tools.map((row) => [row.tool_key, row.policy])),
      };
    });
  }

  setTool(server: string, key: string, policy: ToolPolicy | null): Promise<void> {
    return guarded({ server }, async () => {
      const id = await serverIdOf(this.db, server);
      if (policy === null) {
        await this.db
          .deleteFrom('mcp_tool_policies')
          .where('resource_id', '=', id)
          .where('tool_key', '=', key)
          .execute();
        return;
      }
      const updated_at = this.clock.now().toISOString();
      await this.db
        .insertInto('mcp_tool_policies')
        .values({ resource_id: id, tool_key: key, policy, updated_at })
        .onConflict((c) =>
          c.columns(['resource_id', 'tool_key']).doUpdateSet({ policy, updated_at }),
        )
        .execute();
    });
  }

  setDestructive(server: string, policy: ToolPolicy): Promise<void> {
    return guarded({ server }, async () => {
      const id = await serverIdOf(this.db, server);
      const updated_at = this.clock.now().toISOString();
      await this.db
        .insertInto('mcp_server_policies')
        .values({ resource_id: id, destructive_policy: policy, updated_at })
        .onConflict((c) =>
          c.column('resource_id').doUpdateSet({ destructive_policy: policy, updated_at }),
        )
        .execute();
    });
  }
}
