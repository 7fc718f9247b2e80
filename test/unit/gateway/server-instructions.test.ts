import { describe, expect, it } from 'vitest';
import {
  ServerInstructions,
  type InstructionsFile,
} from '../../../src/gateway/server-instructions.js';

/** A file in memory that counts its writes. */
function memoryFile(initial: Record<string, string> = {}) {
  const file = { saved: new Map(Object.entries(initial)), writes: 0 };
  const port: InstructionsFile = {
    read: () => file.saved,
    write: (said) => {
      file.saved = new Map(said);
      file.writes += 1;
    },
  };
  return { file, port };
}

describe('ServerInstructions', () => {
  it('merges what the servers said under their names, in the order asked, skipping the silent', () => {
    const said = new ServerInstructions();
    said.heard('docs', 'Search before you read.\n');
    said.heard('files', 'Paths are relative to ~/notes.');
    const merged = said.merged(['files', 'quiet', 'docs']);
    expect(merged).toContain('its tools are named <server>__<tool>');
    expect(merged?.split('\n\n').slice(1)).toEqual([
      '## files',
      'Paths are relative to ~/notes.',
      '## docs',
      'Search before you read.',
    ]);
    expect(said.merged(['quiet'])).toBeUndefined();
  });

  it('keeps what it heard in its file, writes only on a change, and starts from it', () => {
    const { file, port } = memoryFile({ old: 'From the run before.' });
    const said = new ServerInstructions(port);
    expect(said.merged(['old'])).toContain('From the run before.');
    said.heard('docs', 'Search first.');
    said.heard('docs', 'Search first.');
    expect(file.writes).toBe(1);
    said.heard('old', undefined);
    said.forget('docs');
    said.forget('docs');
    expect(file.writes).toBe(3);
    expect([...file.saved]).toEqual([]);
  });
});
