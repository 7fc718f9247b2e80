import { describe, expectTypeOf, it } from 'vitest';
import type { ServerView } from '../../../src/api/server-view.js';
import type { SecretView } from '../../../src/api/secret-routes.js';
import type { ImportItemView } from '../../../src/domain/import-item-view.js';
import type { PolicyView } from '../../../src/api/policy-routes.js';
import type { ReviewView } from '../../../src/api/review-routes.js';
import type {
  ActivityEntry,
  AgentChangePreview,
  AgentChangeResult,
  AgentView,
  CapabilityListing,
  ConnectionTestResult,
  DaemonEvent,
  DoctorReport,
  ServerCapabilities,
  ServerStatus,
} from '../../../src/domain/ports.js';
import type * as Web from '../../../web/src/api/types.js';

/**
 * The web UI keeps its own copy of the REST shapes (web/src/api/types.ts): it talks to the
 * daemon over HTTP only, like any other client. These checks keep the copy honest: what the
 * daemon sends must be assignable to what the UI reads, or `npm run typecheck` fails here
 * (expectTypeOf is checked by the compiler, not at run time).
 */
describe('the web UI reads what the daemon sends', () => {
  it('servers, their status and their capabilities', () => {
    expectTypeOf<ServerStatus>().toExtend<Web.ServerStatus>();
    expectTypeOf<ServerView>().toExtend<Web.Server>();
    expectTypeOf<CapabilityListing>().toExtend<Web.CapabilityListing>();
    expectTypeOf<ServerCapabilities>().toExtend<Web.ServerCapabilities>();
    expectTypeOf<ConnectionTestResult>().toExtend<Web.ConnectionTest>();
  });

  it('tool policies', () => {
    expectTypeOf<PolicyView>().toExtend<Web.ServerPolicies>();
  });

  it('tools held back for review', () => {
    expectTypeOf<ReviewView>().toExtend<Web.ToolReviews>();
  });

  it('activity, secrets and live events', () => {
    expectTypeOf<ActivityEntry>().toExtend<Web.ActivityEntry>();
    expectTypeOf<SecretView>().toExtend<Web.SecretRow>();
    expectTypeOf<DaemonEvent>().toExtend<Web.DaemonEvent>();
  });

  it('the doctor report', () => {
    expectTypeOf<DoctorReport>().toExtend<Web.DoctorReport>();
  });

  it('agents: their files, previews of a change, import items', () => {
    expectTypeOf<AgentView>().toExtend<Web.Agent>();
    expectTypeOf<AgentChangePreview>().toExtend<Web.AgentChangePreview>();
    expectTypeOf<AgentChangeResult>().toExtend<Web.AgentChangeResult>();
    expectTypeOf<ImportItemView>().toExtend<Web.AgentImportItem>();
  });
});
