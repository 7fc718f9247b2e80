import { describe, expect, it } from 'vitest';
import { importItemView, recordedImports } from '../../../src/domain/import-item-view.js';
import type { AgentImportItem } from '../../../src/domain/ports.js';

const item: AgentImportItem = {
  original: 'GitHub',
  server: 'github',
  action: 'add',
  secrets: [
    { server: 'github', kind: 'env', name: 'GITHUB_TOKEN', value: 'ghp_not-a-real-token-0000' },
    { server: 'github', kind: 'header', name: 'Authorization', value: 'Bearer abc.def.ghi' },
  ],
  notes: ['renamed'],
  fingerprint: 'f1',
};

describe('importItemView', () => {
  it('names secrets without their values, whatever the outcome', () => {
    for (const outcome of [
      { kind: 'planned' } as const,
      { kind: 'added', pending: ['GITHUB_TOKEN'] } as const,
      { kind: 'failed', message: 'name taken' } as const,
    ]) {
      const view = importItemView(item, outcome);
      expect(view.secrets).toEqual([
        { kind: 'env', name: 'GITHUB_TOKEN' },
        { kind: 'header', name: 'Authorization' },
      ]);
      expect(JSON.stringify(view)).not.toMatch(/ghp_|abc\.def/);
    }
  });

  it('says what happened: the error of a failure, the secrets left pending of an add', () => {
    expect(importItemView(item, { kind: 'failed', message: 'name taken' })).toMatchObject({
      outcome: 'failed',
      error: 'name taken',
    });
    const added = importItemView(item, { kind: 'added', pending: ['GITHUB_TOKEN'] });
    expect(added).toMatchObject({ outcome: 'added', secrets_pending: ['GITHUB_TOKEN'] });
    expect(added).not.toHaveProperty('error');
    const planned = importItemView({ ...item, reason: 'clash' }, { kind: 'planned' });
    expect(planned).toMatchObject({ outcome: 'planned', reason: 'clash', notes: ['renamed'] });
    expect(planned).not.toHaveProperty('secrets_pending');
    expect(planned).not.toHaveProperty('definition');
  });
});

describe('recordedImports', () => {
  it('records the servers added (with pending secrets) and the entries Coffer already served', () => {
    const same: AgentImportItem = { ...item, original: 'gh', action: 'same', secrets: [] };
    const clash: AgentImportItem = { ...item, original: 'x', action: 'clash' };
    const failed: AgentImportItem = { ...item, original: 'y' };
    const recorded = recordedImports([
      [item, { kind: 'added', pending: ['GITHUB_TOKEN'] }],
      [same, { kind: 'planned' }],
      [clash, { kind: 'planned' }],
      [failed, { kind: 'failed', message: 'refused' }],
    ]);
    expect(recorded).toEqual([
      { item, pending: ['GITHUB_TOKEN'] },
      { item: same, pending: [] },
    ]);
  });
});
