import { createContext, useCallback, useContext, useState, type ReactNode } from 'react';

interface Toast {
  readonly id: number;
  readonly text: string;
  readonly tone: 'ok' | 'error';
}

type Show = (text: string, tone?: Toast['tone']) => void;
const Context = createContext<Show>(() => undefined);

const SHOWN_MS = 5_000;

/** Short confirmations ("Tool disabled"), announced politely to screen readers. */
export function Toasts({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const show = useCallback<Show>((text, tone = 'ok') => {
    const id = Date.now() + Math.random();
    setToasts((current) => [...current.slice(-2), { id, text, tone }]);
    window.setTimeout(() => setToasts((current) => current.filter((t) => t.id !== id)), SHOWN_MS);
  }, []);
  return (
    <Context.Provider value={show}>
      {children}
      <div className="toasts" aria-live="polite" role="status">
        {toasts.map((toast) => (
          <p key={toast.id} className={`toast toast-${toast.tone}`}>
            {toast.text}
          </p>
        ))}
      </div>
    </Context.Provider>
  );
}

export function useToast(): Show {
  return useContext(Context);
}
