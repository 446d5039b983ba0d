import { createContext, type ReactNode, useCallback, useContext, useEffect, useId, useState } from 'react';
import type { RawResponse } from '../../src/clients/api-client/client.js';
import { percent, score as scoreText } from '../../src/clients/api-client/format.js';
import type { ApiClient, Me } from './api';
import type { Can, Signed, SignedOrg } from './resources/session';

/** The signed-in key or person, in the organization the console shows. */
export interface Session {
  api: ApiClient;
  me: Me;
  kind: Signed['kind'];
  platform: boolean;
  person: Signed['person'];
  orgId: string;
  orgName: string;
  role: SignedOrg['role'];
  /** What the key or person may do in this org. */
  can: Can;
  /** Bumped after every write, so that every view reloads what it shows. */
  version: number;
  changed(): void;
}

export const SessionContext = createContext<Session | null>(null);
export const useSession = (): Session => {
  const session = useContext(SessionContext);
  if (!session) throw new Error('no session');
  return session;
};

export interface Loaded<T> {
  data: T | undefined;
  error: Error | undefined;
  loading: boolean;
  reload(): void;
}

/** Loads on mount and whenever deps or the session's version change; the latest request wins. */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[]): Loaded<T> {
  const { version } = useSession();
  const [state, setState] = useState<{ data?: T; error?: Error; loading: boolean }>({ loading: true });
  const [tick, setTick] = useState(0);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the caller lists what the load depends on
  useEffect(() => {
    let live = true;
    setState((previous) => ({ ...previous, loading: true }));
    load().then(
      (data) => live && setState({ data, loading: false }),
      (error: Error) => live && setState({ error, loading: false }),
    );
    return () => {
      live = false;
    };
  }, [...deps, version, tick]);
  const reload = useCallback(() => setTick((n) => n + 1), []);
  return { data: state.data, error: state.error, loading: state.loading, reload };
}

export function Show<T>({ loaded, children }: { loaded: Loaded<T>; children: (data: T) => ReactNode }) {
  if (loaded.error) return <ErrorText error={loaded.error} />;
  if (loaded.data === undefined) return <p className="muted">Loading…</p>;
  return <>{children(loaded.data)}</>;
}

export const ErrorText = ({ error }: { error: Error }) => (
  <p role="alert" className="error">
    {error.message}
  </p>
);

/** A fraction (coverage) as a percentage; a score, already in percent. The console shows a missing value as —. */
export const pct = (value: number | null | undefined, digits = 1) => percent(value, { digits, missing: '—' });
export const score = (value: number | null | undefined) => scoreText(value, { digits: 1, missing: '—' });
export const day = (iso: string | null | undefined) => (iso ? iso.slice(0, 10) : '—');
export const when = (iso: string | null | undefined) => (iso ? iso.replace('T', ' ').slice(0, 19) : '—');
export const label = (value: string) => value.replace(/_/g, ' ');

/** What a requirement counts as, and whether the crosswalk infers it rather than the org recording it. */
export const statusText = (r: { status: string; assessment: string; applicable: boolean }) =>
  r.applicable ? `${label(r.status)}${r.assessment === 'inferred' ? ' (inferred)' : ''}` : 'not applicable';

export function Bar({ value, text }: { value: number | null; text?: string }) {
  const width = value === null ? 0 : Math.max(0, Math.min(100, value));
  return (
    <span className="bar" role="img" aria-label={text ?? `${width.toFixed(1)}%`}>
      <span className="bar-fill" style={{ width: `${width}%` }} />
    </span>
  );
}

export const Badge = ({ kind, children }: { kind: string; children: ReactNode }) => (
  <span className={`badge badge-${kind}`}>{children}</span>
);

export function Pager({
  offset,
  limit,
  total,
  onChange,
  label: name,
}: {
  offset: number;
  limit: number;
  total: number | null;
  onChange(offset: number): void;
  label: string;
}) {
  const last = total === null ? null : Math.max(0, total - 1);
  return (
    <nav className="pager" aria-label={`${name} pages`}>
      <button type="button" disabled={offset === 0} onClick={() => onChange(Math.max(0, offset - limit))}>
        Previous
      </button>
      <span>
        {total === 0
          ? 'none'
          : `${offset + 1}–${total === null ? offset + limit : Math.min(offset + limit, total)}${
              total === null ? '' : ` of ${total}`
            }`}
      </span>
      <button
        type="button"
        disabled={last !== null && offset + limit > last}
        onClick={() => onChange(offset + limit)}
      >
        Next
      </button>
    </nav>
  );
}

/** A labelled form field: the label is always tied to its control. */
export function Field({ label: text, children }: { label: string; children: (id: string) => ReactNode }) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{text}</label>
      {children(id)}
    </div>
  );
}

/** A write's outcome, announced to screen readers. */
export function useAction(): {
  run(work: () => Promise<unknown>, done?: string): Promise<boolean>;
  message: ReactNode;
  busy: boolean;
} {
  const session = useSession();
  const [state, setState] = useState<{ text: string; error: boolean } | null>(null);
  const [busy, setBusy] = useState(false);
  const run = async (work: () => Promise<unknown>, done = 'Saved') => {
    setBusy(true);
    try {
      await work();
      setState({ text: done, error: false });
      session.changed();
      return true;
    } catch (error) {
      setState({ text: (error as Error).message, error: true });
      return false;
    } finally {
      setBusy(false);
    }
  };
  const message = (
    <p role={state?.error ? 'alert' : 'status'} className={state?.error ? 'error' : 'ok'}>
      {state?.text ?? ''}
    </p>
  );
  return { run, message, busy };
}

/** Saves a response as a file through a short-lived object URL (the key never appears in a URL). */
export function download(response: RawResponse, fallbackName: string): string {
  const disposition = response.headers.get('content-disposition') ?? '';
  const name = /filename="([^"]+)"/.exec(disposition)?.[1] ?? fallbackName;
  const type = response.headers.get('content-type') ?? 'application/octet-stream';
  const url = URL.createObjectURL(new Blob([response.body as Uint8Array<ArrayBuffer>], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
  return name;
}

/** A wide table's scroll box: focusable, so that keyboard users can scroll it too (WCAG 2.1.1). */
export const Scroll = ({ children }: { children: ReactNode }) => (
  // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard
  <div className="scroll" tabIndex={0}>
    {children}
  </div>
);
