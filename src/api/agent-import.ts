import type { Context } from 'hono';
import { isCofferError } from '../domain/errors.js';
import { importItemView, recordedImports, type ImportOutcome } from '../domain/import-item-view.js';
import type { AgentImportItem, AgentImportPlan, SecretRef, SecretStore } from '../domain/ports.js';
import { recordAdmin } from './admin-audit.js';
import { announce } from './announce.js';
import type { ApiServices } from './api-services.js';

/**
 * `coffer agents import` for the UI: each planned server is registered, then its
 * secrets go to the keychain. A refused secret takes the server back, so nothing is
 * half imported. Values never appear in what is answered: secrets by name only.
 */

function failure(error: unknown): ImportOutcome {
  return { kind: 'failed', message: isCofferError(error) ? error.userMessage : 'internal error' };
}

async function undo(services: ApiServices, server: string, stored: readonly SecretRef[]) {
  for (const ref of stored) await services.secrets?.delete(ref).catch(() => false);
  await services.servers.remove(server).catch(() => undefined);
}

async function storeSecrets(
  services: ApiServices,
  store: SecretStore,
  item: AgentImportItem,
): Promise<ImportOutcome> {
  const stored: SecretRef[] = [];
  for (const { value, ...ref } of item.secrets) {
    try {
      await store.set(ref, value);
      stored.push(ref);
    } catch (error) {
      await undo(services, item.server, stored);
      return failure(error);
    }
  }
  return { kind: 'added', pending: [] };
}

async function importItem(
  services: ApiServices,
  c: Context,
  item: AgentImportItem,
): Promise<ImportOutcome> {
  if (item.action !== 'add' || item.definition === undefined) return { kind: 'planned' };
  try {
    await services.servers.create(item.definition);
  } catch (error) {
    return failure(error);
  }
  // A daemon without a secret store keeps the server; the agent file keeps the secrets.
  const outcome =
    services.secrets === undefined
      ? { kind: 'added' as const, pending: item.secrets.map((secret) => secret.name) }
      : await storeSecrets(services, services.secrets, item);
  if (outcome.kind === 'added') {
    recordAdmin(services, c, { action: 'server.add', server: item.server });
    announce(services, { type: 'server.added', server: item.server });
  }
  return outcome;
}

export async function runImport(services: ApiServices, c: Context, plan: AgentImportPlan) {
  const results: [AgentImportItem, ImportOutcome][] = [];
  for (const item of plan.items) results.push([item, await importItem(services, c, item)]);
  if (results.some(([, outcome]) => outcome.kind === 'added')) services.notifier.serversChanged();
  await services.agents?.recordImports(plan, recordedImports(results));
  return results.map(([item, outcome]) => importItemView(item, outcome));
}
