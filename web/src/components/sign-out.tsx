import { api, errorText, serverPath } from '../api/client.js';
import { useToast } from './toasts.js';

/**
 * "Signed in" beside a remote server whose OAuth tokens Coffer holds for its URL, and the
 * way out: the daemon asks the authorization server to revoke them, then forgets them.
 */
export function SignOut({ name }: { name: string }) {
  const toast = useToast();
  const signOut = async () => {
    if (
      !window.confirm(`Sign out of ${name}? Coffer revokes its tokens where the server allows it.`)
    )
      return;
    try {
      await api.post(`${serverPath(name)}/logout`);
      toast(`Signed out of ${name}`);
    } catch (error) {
      toast(errorText(error), 'error');
    }
  };
  return (
    <>
      <span className="tag">Signed in</span>{' '}
      <button type="button" className="button subtle" onClick={() => void signOut()}>
        Sign out
      </button>{' '}
    </>
  );
}
