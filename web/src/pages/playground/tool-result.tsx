import type { ToolRun } from '../../api/types.js';

type Item = Readonly<Record<string, unknown>>;

const text = (item: Item, key: string): string | undefined =>
  typeof item[key] === 'string' ? item[key] : undefined;

function Embedded({ resource }: { resource: Item }) {
  const body = text(resource, 'text');
  const blob = text(resource, 'blob');
  return (
    <>
      <code>{text(resource, 'uri')}</code>{' '}
      <span className="muted">{text(resource, 'mimeType')}</span>
      {body !== undefined && <pre>{body}</pre>}
      {blob !== undefined && <p className="muted">{blob.length} base64 characters</p>}
    </>
  );
}

/** One content item, drawn as what it is; an unknown type shows as JSON. */
function ContentItem({ item }: { item: Item }) {
  const type = text(item, 'type') ?? 'unknown';
  const source = `data:${text(item, 'mimeType') ?? ''};base64,${text(item, 'data') ?? ''}`;
  let body;
  switch (type) {
    case 'text':
      body = <pre>{text(item, 'text')}</pre>;
      break;
    case 'image':
      body = <img src={source} alt="Image returned by the tool" className="result-image" />;
      break;
    case 'audio':
      body = <audio controls src={source} aria-label="Audio returned by the tool" />;
      break;
    case 'resource_link':
      body = (
        <p>
          <code>{text(item, 'uri')}</code> {text(item, 'name')}{' '}
          <span className="muted">{text(item, 'mimeType')}</span>
          {text(item, 'description') !== undefined && <> — {text(item, 'description')}</>}
        </p>
      );
      break;
    case 'resource': {
      const resource = item['resource'];
      body =
        resource !== null && typeof resource === 'object' ? (
          <Embedded resource={resource as Item} />
        ) : null;
      break;
    }
    default:
      body = <pre>{JSON.stringify(item, null, 2)}</pre>;
  }
  return (
    <li className="result-item">
      <span className="kind">{type}</span>
      {body}
    </li>
  );
}

/** A call's result with its content types, structuredContent and isError, or its error. */
export function ToolResult({ run }: { run: ToolRun }) {
  if (run.outcome === 'error')
    return (
      <div className="notice notice-error" role="alert">
        <p className="notice-title">
          Refused or failed: <code>{run.error?.code}</code>
        </p>
        <div className="notice-body">{run.error?.message}</div>
      </div>
    );
  const result = run.result ?? {};
  const content = Array.isArray(result['content']) ? (result['content'] as Item[]) : [];
  const structured = result['structuredContent'];
  return (
    <div className="tool-result" aria-label="Result">
      {result['isError'] === true && (
        <p className="outcome outcome-error">The tool reported an error (isError)</p>
      )}
      <ul className="result-items">
        {content.map((item, index) => (
          <ContentItem key={index} item={item} />
        ))}
      </ul>
      {structured !== undefined && (
        <>
          <h4>structuredContent</h4>
          <pre>{JSON.stringify(structured, null, 2)}</pre>
        </>
      )}
    </div>
  );
}
