import { useEffect, useState } from 'react';
import { api, errorText, serverPath } from '../api/client.js';
import { Notice } from './notice.js';

interface SignInStart {
  readonly authorization_url: string;
}
interface SignInStatus {
  readonly state: 'none' | 'pending' | 'signed-in' | 'failed';
  readonly error?: { readonly message: string };
}

const POLL_MS = 1000;

/**
 * "Sign in" for a remote server that needs OAuth: the daemon starts the flow, the
 * authorization page opens in a new tab, and this waits until the daemon says how it
 * went (the server's state then changes through the live events).
 */
export function SignIn({ name }: { name: string }) {
  const [phase, setPhase] = useState<'idle' | 'waiting' | 'done'>('idle');
  const [url, setUrl] = useState<string>();
  const [failure, setFailure] = useState<string>();

  useEffect(() => {
    if (phase !== 'waiting') return;
    const timer = setInterval(() => {
      api
        .get<SignInStatus>(`${serverPath(name)}/login`)
        .then((status) => {
          if (status.state === 'signed-in') setPhase('done');
          if (status.state === 'failed') {
            setFailure(status.error?.message ?? 'The sign-in failed');
            setPhase('idle');
          }
        })
        .catch((error: unknown) => setFailure(errorText(error)));
    }, POLL_MS);
    return () => clearInterval(timer);
  }, [phase, name]);

  const start = async () => {
    setFailure(undefined);
    try {
      const started = await api.post<SignInStart>(`${serverPath(name)}/login`);
      setUrl(started.authorization_url);
      setPhase('waiting');
      window.open(started.authorization_url, '_blank', 'noopener');
    } catch (error) {
      setFailure(errorText(error));
    }
  };

  if (phase === 'done') return <Notice tone="info" title={`Signed in to ${name}`} />;
  return (
    <Notice
      tone="warning"
      title={phase === 'waiting' ? 'Waiting for the sign-in in the other tab…' : 'Sign-in needed'}
      action={
        <button type="button" className="button primary" onClick={() => void start()}>
          {phase === 'waiting' ? 'Open the sign-in again' : 'Sign in'}
        </button>
      }
    >
      {phase === 'waiting' && url !== undefined ? (
        <p>
          If no tab opened,{' '}
          <a href={url} target="_blank" rel="noopener noreferrer">
            open the sign-in page
          </a>
          .
        </p>
      ) : (
        <p>
          This server uses OAuth and Coffer has no valid tokens for it. Sign in once; Coffer keeps
          the tokens in the keychain and refreshes them.
        </p>
      )}
      {failure !== undefined && <p role="alert">{failure}</p>}
    </Notice>
  );
}
