import { useState } from 'react';
import { api, errorText, serverPath } from '../api/client.js';
import type { ConnectionTest } from '../api/types.js';
import { Notice } from '../components/notice.js';
import { WhatToDo } from '../components/what-to-do.js';
import { formatCounts } from '../format.js';

/**
 * "Test connection": a fresh temporary connection, its latency and counts, or why it failed.
 * `onConnected` hears of a test that connected: the page's lists may date from a failure.
 */
export function useConnectionTest(name: string, onConnected: () => void) {
  const [testing, setTesting] = useState(false);
  const [result, setResult] = useState<ConnectionTest | { failed: string }>();
  const run = async () => {
    setTesting(true);
    setResult(undefined);
    try {
      const tested = await api.post<ConnectionTest>(`${serverPath(name)}/test`);
      setResult(tested);
      if (tested.ok) onConnected();
    } catch (error) {
      setResult({ failed: errorText(error) });
    } finally {
      setTesting(false);
    }
  };
  return { testing, result, run };
}

export function TestResult({ result }: { result: ConnectionTest | { failed: string } }) {
  if ('failed' in result) {
    return (
      <Notice tone="error" title="The test could not run">
        {result.failed}
      </Notice>
    );
  }
  if (!result.ok) {
    return (
      <Notice tone="error" title={`Connection failed after ${result.latency_ms} ms`}>
        <p>
          <code>{result.error?.code}</code> {result.error?.message}
        </p>
        <WhatToDo hint={result.error?.hint} />
      </Notice>
    );
  }
  return (
    <Notice tone="info" title={`Connected in ${result.latency_ms} ms`}>
      {formatCounts(result.counts)}
    </Notice>
  );
}
