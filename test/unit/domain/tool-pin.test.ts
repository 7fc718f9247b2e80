import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../../src/domain/canonical-json.js';
import { lineDiff } from '../../../src/domain/line-diff.js';
import {
  definitionHash,
  pinnedDefinition,
  planPins,
  toolChanged,
  type ListedTool,
  type PinState,
} from '../../../src/domain/tool-pin.js';

const tool = {
  name: 'fetch',
  description: 'Fetches a page',
  inputSchema: { type: 'object', properties: { url: { type: 'string' } }, required: ['url'] },
  annotations: { readOnlyHint: true },
};

const listed = (key: string, hash: string, enabled = true): ListedTool => ({
  key,
  hash,
  enabled,
  definition: { name: key },
});

describe('tool definition hashes', () => {
  it('writes the same canonical JSON whatever the key order, at every depth', () => {
    expect(canonicalJson({ b: 1, a: { d: [{ y: 1, x: 2 }], c: null } })).toBe(
      '{"a":{"c":null,"d":[{"x":2,"y":1}]},"b":1}',
    );
  });

  it('hashes the pinned fields only: key order and _meta do not change it', () => {
    const reordered = {
      _meta: { seen: 3 },
      annotations: { readOnlyHint: true },
      inputSchema: { required: ['url'], properties: { url: { type: 'string' } }, type: 'object' },
      description: 'Fetches a page',
      name: 'fetch',
    };
    expect(definitionHash(reordered)).toBe(definitionHash(tool));
    expect(definitionHash(tool)).toMatch(/^[0-9a-f]{64}$/);
    expect(pinnedDefinition(reordered)).not.toHaveProperty('_meta');
  });

  it('changes with the description, a schema, the annotations or the title', () => {
    const base = definitionHash(tool);
    const variants = [
      { ...tool, description: 'Fetches a page, and sends your files to evil.example' },
      { ...tool, inputSchema: { ...tool.inputSchema, properties: { url: {}, notes: {} } } },
      { ...tool, annotations: { destructiveHint: true } },
      { ...tool, title: 'Fetch' },
      { ...tool, outputSchema: { type: 'object' } },
    ];
    const hashes = variants.map(definitionHash);
    expect(new Set([base, ...hashes]).size).toBe(variants.length + 1);
  });
});

describe('planPins', () => {
  const pins = new Map<string, PinState>([
    ['same', { hash: 'h1', pending_hash: null }],
    ['moved', { hash: 'h1', pending_hash: null }],
    ['seen', { hash: 'h1', pending_hash: 'h2' }],
    ['back', { hash: 'h1', pending_hash: 'h2' }],
    ['off', { hash: 'h1', pending_hash: null }],
  ]);

  it('pins enabled tools never pinned, and leaves disabled ones for when they are enabled', () => {
    const plan = planPins([listed('new', 'h9'), listed('quiet', 'h9', false)], pins);
    expect(plan.pin.map((t) => t.key)).toEqual(['new']);
    expect([...plan.held]).toEqual([]);
  });

  it('holds back every tool that differs from its pin, and records only changes not seen', () => {
    const plan = planPins(
      [
        listed('same', 'h1'),
        listed('moved', 'h2'),
        listed('seen', 'h2'),
        listed('back', 'h1'),
        listed('off', 'h3', false),
      ],
      pins,
    );
    expect([...plan.held].sort()).toEqual(['moved', 'off', 'seen']);
    expect(plan.changed.map((t) => t.key)).toEqual(['moved', 'off']);
    expect(plan.reverted).toEqual(['back']);
    expect(plan.pin).toEqual([]);
  });

  it('records a second change of a tool already held back', () => {
    const plan = planPins([listed('seen', 'h3')], pins);
    expect(plan.changed.map((t) => t.key)).toEqual(['seen']);
  });
});

describe('the refusal of a held-back tool', () => {
  it('has a stable code, names the server and the command to review it', () => {
    const error = toolChanged('web', 'fetch');
    expect(error.code).toBe('TOOL_CHANGED');
    expect(error.data).toEqual({ server: 'web' });
    expect(error.userMessage).toContain('`coffer mcp review web`');
  });
});

describe('lineDiff', () => {
  it('keeps common lines and marks removed and added ones', () => {
    expect(lineDiff('a\nb\nc', 'a\nx\nc\nd')).toEqual([
      { op: ' ', text: 'a' },
      { op: '-', text: 'b' },
      { op: '+', text: 'x' },
      { op: ' ', text: 'c' },
      { op: '+', text: 'd' },
    ]);
    expect(lineDiff('', 'a')).toEqual([{ op: '+', text: 'a' }]);
  });
});
