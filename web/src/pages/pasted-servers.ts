/**
 * What the "paste a README's JSON" box sends: text in one agent's format, for
 * `POST /agents/<id>/import` with `text`. READMEs give the `mcpServers` block (Claude
 * Desktop, Cursor), VS Code's `servers`, or only the entries inside it, often without their
 * braces; the daemon reads all of these (src/agents/documents/snippet.ts), so the text goes
 * as pasted. Here: which agent's format it is, and a plain word for text that is no snippet.
 */
export type Pasted = { readonly agent: string; readonly text: string } | { readonly error: string };

/** The key of each format, and the agent whose reader knows it (docs/AGENTS.md). */
const FORMATS: readonly (readonly [string, string])[] = [
  ['mcpServers', 'claude-desktop'],
  ['servers', 'vscode'],
  ['context_servers', 'zed'],
];

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The text as a JSON object, braces added when a README gave only what is inside them. */
function parseObject(text: string): Record<string, unknown> | undefined {
  for (const candidate of [text, `{${text.replace(/,$/, '')}}`]) {
    try {
      const value: unknown = JSON.parse(candidate);
      if (isObject(value)) return value;
    } catch {
      // Try the next reading; the daemon reports the syntax of the one sent.
    }
  }
  return undefined;
}

/** `{"github": {"command": …}}`: entries without the key around them. */
function isServerMap(value: Record<string, unknown>): boolean {
  const entries = Object.values(value);
  return (
    entries.length > 0 &&
    entries.every((entry) => isObject(entry) && ('command' in entry || 'url' in entry))
  );
}

export function readPasted(text: string): Pasted {
  const trimmed = text.trim();
  if (trimmed === '') return { error: "Paste the JSON that the server's README gives." };
  // The key is found in the text itself: a VS Code snippet may carry comments JSON refuses.
  for (const [key, agent] of FORMATS)
    if (new RegExp(`"${key}"\\s*:`).test(trimmed)) return { agent, text: trimmed };
  const value = parseObject(trimmed);
  if (value !== undefined && isServerMap(value)) return { agent: 'claude-desktop', text: trimmed };
  return {
    error:
      value === undefined
        ? 'This is not JSON: paste the whole snippet, from its first "{" to its last "}".'
        : 'No server in it: the snippet names its servers under "mcpServers", or each with its "command" or "url".',
  };
}
