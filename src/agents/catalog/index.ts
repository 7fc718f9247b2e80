import { CofferError } from '../../domain/errors.js';
import type { AgentDefinition } from '../types.js';
import { claudeCode } from './claude-code.js';
import { claudeDesktop } from './claude-desktop.js';
import { cline } from './cline.js';
import { codex } from './codex.js';
import { cursor } from './cursor.js';
import { geminiCli } from './gemini-cli.js';
import { vscode } from './vscode.js';
import { windsurf } from './windsurf.js';
import { zed } from './zed.js';

/** Every agent Coffer knows. Adding one: a file next to this one, and a line here. */
export const agentCatalog: readonly AgentDefinition[] = [
  claudeDesktop,
  claudeCode,
  cursor,
  vscode,
  windsurf,
  codex,
  geminiCli,
  zed,
  cline,
];

export function findAgent(id: string): AgentDefinition {
  const agent = agentCatalog.find((candidate) => candidate.id === id);
  if (agent !== undefined) return agent;
  throw new CofferError('INVALID_INPUT', `Unknown agent "${id}"`, {
    hint: `known agents: ${agentCatalog.map((known) => known.id).join(', ')}`,
  });
}
