import { describe, expect, it } from 'vitest';
import { readSettings } from '../../../src/config/settings.js';
import { CofferError } from '../../../src/domain/errors.js';

describe('readSettings', () => {
  it('uses the documented defaults when nothing is set', () => {
    const settings = readSettings({});
    expect(settings).toMatchObject({
      listTimeoutMs: 10_000,
      requestTimeoutMs: 120_000,
      connectTimeoutMs: 60_000,
      maxTotalTimeoutMs: undefined,
      maxProcessesPerServer: 64,
      maxSessions: 1_000,
    });
    expect(readSettings({ COFFER_MAX_SESSIONS: '20' }).maxSessions).toBe(20);
  });

  it('reads the start-up timeout apart from the call timeout', () => {
    const settings = readSettings({
      COFFER_REQUEST_TIMEOUT_MS: '1000',
      COFFER_CONNECT_TIMEOUT_MS: '45000',
    });
    expect(settings.requestTimeoutMs).toBe(1000);
    expect(settings.connectTimeoutMs).toBe(45_000);
  });

  it.each(['0', '-5', '1.5', 'soon'])('refuses COFFER_CONNECT_TIMEOUT_MS=%s by name', (text) => {
    const attempt = () => readSettings({ COFFER_CONNECT_TIMEOUT_MS: text });
    expect(attempt).toThrow(CofferError);
    expect(attempt).toThrow(`COFFER_CONNECT_TIMEOUT_MS must be a positive whole number`);
  });
});

describe('readSettings: the tool result budget', () => {
  it('cuts at 25,000 tokens and keeps results 30 minutes by default', () => {
    const settings = readSettings({});
    expect(settings.resultBudgetTokens).toBe(25_000);
    expect(settings.resultTtlMs).toBe(30 * 60_000);
  });

  it('reads a budget, and "off" turns it off', () => {
    expect(readSettings({ COFFER_RESULT_BUDGET_TOKENS: '8000' }).resultBudgetTokens).toBe(8000);
    expect(readSettings({ COFFER_RESULT_BUDGET_TOKENS: 'off' }).resultBudgetTokens).toBeUndefined();
    expect(readSettings({ COFFER_RESULT_TTL_MS: '5000' }).resultTtlMs).toBe(5000);
  });

  it.each(['0', '999', '-5', '1.5', 'none', 'OFF'])(
    'refuses COFFER_RESULT_BUDGET_TOKENS=%s by name, saying what it takes',
    (text) => {
      const attempt = () => readSettings({ COFFER_RESULT_BUDGET_TOKENS: text });
      expect(attempt).toThrow(CofferError);
      expect(attempt).toThrow(
        `COFFER_RESULT_BUDGET_TOKENS must be a whole number of tokens, at least 1000, or "off", not "${text}"`,
      );
    },
  );
});

describe('readSettings: COFFER_BLOCK_CREDENTIALS', () => {
  it('only flags credential shapes unless turned on', () => {
    expect(readSettings({}).blockCredentials).toBe(false);
    for (const off of ['0', 'off', 'false', ''])
      expect(readSettings({ COFFER_BLOCK_CREDENTIALS: off }).blockCredentials).toBe(false);
    for (const on of ['1', 'on', 'TRUE'])
      expect(readSettings({ COFFER_BLOCK_CREDENTIALS: on }).blockCredentials).toBe(true);
  });

  it('refuses anything else by name', () => {
    expect(() => readSettings({ COFFER_BLOCK_CREDENTIALS: 'yes please' })).toThrow(
      'COFFER_BLOCK_CREDENTIALS must be 1 (on) or 0 (off), not "yes please"',
    );
  });
});
