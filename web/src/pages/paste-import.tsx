import { useState } from 'react';
import { ImportPreview, type ImportTarget } from './agents/import-preview.js';
import { readPasted } from './pasted-servers.js';

/**
 * The Add-a-server page's other way in: the JSON a server's README gives, imported as
 * `coffer agents import <agent> --file` would (secrets to the keychain, stand-ins such as
 * <YOUR_TOKEN> never stored), with the same preview as an agent's import.
 */
export function PasteImport() {
  const [text, setText] = useState('');
  const [error, setError] = useState<string>();
  const [target, setTarget] = useState<ImportTarget>();

  const preview = () => {
    const read = readPasted(text);
    if ('error' in read) {
      setError(read.error);
      setTarget(undefined);
      return;
    }
    setError(undefined);
    setTarget({ agent: read.agent, name: 'the pasted JSON', scope: 'user', text: read.text });
  };

  return (
    <details className="paste-import">
      <summary>Or paste the JSON from a server's README</summary>
      <div className={error === undefined ? 'field' : 'field has-error'}>
        <label htmlFor="pasted-json">JSON from the server's README</label>
        <textarea
          id="pasted-json"
          rows={8}
          spellCheck={false}
          value={text}
          onChange={(event) => {
            setText(event.target.value);
            setError(undefined);
          }}
        />
        <p className="field-hint">
          The "mcpServers" block (Claude Desktop, Cursor) or VS Code's "servers". A token in it goes
          to the keychain; a stand-in such as &lt;YOUR_TOKEN&gt; is not stored.
        </p>
        {error !== undefined && <p className="field-error">{error}</p>}
      </div>
      <div className="form-actions">
        <button type="button" className="button" onClick={preview}>
          Preview the import
        </button>
      </div>
      {target !== undefined && (
        <ImportPreview
          key={target.text}
          target={target}
          onDone={() => undefined}
          onCancel={() => setTarget(undefined)}
        />
      )}
    </details>
  );
}
