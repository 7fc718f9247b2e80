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
    });
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
