import { useToast } from './toasts.js';

/**
 * A command to type, with a button that copies it. The text stays selectable, so a
 * browser that refuses the clipboard still lets the user copy it by hand.
 */
export function CopyCode({ text, label }: { readonly text: string; readonly label: string }) {
  const toast = useToast();
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      toast('Copied');
    } catch {
      toast('The browser refused the clipboard: select the text and copy it', 'error');
    }
  };
  return (
    <div className="copy-code">
      <code>{text}</code>
      <button
        className="button subtle"
        type="button"
        aria-label={label}
        onClick={() => void copy()}
      >
        Copy
      </button>
    </div>
  );
}
