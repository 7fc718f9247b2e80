import { fileLocation, findAgent } from '../../agents/index.js';
import { placeHere } from '../../agents/launch-folder.js';
import { CofferError } from '../../domain/errors.js';
import { decodeJsonText } from '../../domain/json-text.js';
import type { CliContext } from '../cli-context.js';
import { CliExit, ExitCode } from '../output.js';
import { agentContext } from './agents-shared.js';
import { runImportOf } from './import-run.js';
import type { AddJsonFlags } from './mcp-add-json.js';
import { checkName } from './mcp-input.js';

/**
 * The entry: a JSON object, or a one-line error saying what was wrong. Decoded as every
 * JSON the daemon and the CLI take in (domain/json-text.ts): its error gives the position,
 * never a quote of the text, which may hold a token.
 */
function parseEntry(json: string): Record<string, unknown> {
  // The subject reads as the message's start: "The server's entry is not valid JSON (at …)".
  const decoded = decodeJsonText(Buffer.from(json, 'utf8'), "The server's entry");
  if (!decoded.ok)
    throw new CofferError('INVALID_INPUT', decoded.message, {
      hint: `quote it for the shell: coffer mcp add-json <name> '{"command": "npx", "args": ["-y", "<package>"]}'`,
    });
  const value = decoded.value;
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new CofferError('INVALID_INPUT', "The server's JSON is not an object", {
      hint: 'give one entry, e.g. {"command": "npx", "args": ["-y", "<package>"]} or {"type": "http", "url": "https://…"}',
    });
  const entry = value as Record<string, unknown>;
  // A whole block pasted from a README (`{"mcpServers": {…}}`) holds entries, not one.
  const block = ['mcpServers', 'servers'].find((key) => key in entry && !('command' in entry));
  if (block !== undefined)
    throw new CofferError('INVALID_INPUT', `The JSON is a "${block}" block, not one entry`, {
      hint: `give the entry inside it, or import the whole block: coffer agents import claude-desktop --file <file with the block>`,
    });
  return entry;
}

export async function addJson(
  context: CliContext,
  name: string,
  json: string,
  flags: AddJsonFlags,
): Promise<void> {
  checkName(name);
  const entry = parseEntry(json);
  const agent = findAgent('claude-code');
  const where = agentContext(context);
  const location = fileLocation(agent, where, 'the JSON given');
  const header = `${name}: the JSON given (read as Claude Code reads an entry)`;
  const [item] = await runImportOf(
    context,
    { agent, location, header, servers: { [name]: entry }, place: placeHere(where) },
    flags,
  );
  // One server asked for: not added (a taken name, an entry Coffer cannot use) is a failure.
  if (item !== undefined && item.action !== 'add' && item.action !== 'same')
    throw new CliExit(ExitCode.GENERIC);
}
