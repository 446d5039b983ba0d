import { StrictMode, useCallback, useEffect, useMemo, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { UNAUTHORIZED } from './api';
import { pageHref, readRoute } from './links';
import { type Signed, signIn } from './resources/session';
import { ROUTES, routeOf } from './routes';
import { ErrorText, type Session, SessionContext } from './ui';
import './styles.css';

/** The key lives in this tab's session storage only: never in a URL, a cookie or local storage. */
const KEY = 'comply.key';
const ORG = 'comply.org';

function useRoute(): string[] {
  const [route, setRoute] = useState(readRoute);
  useEffect(() => {
    const onChange = () => setRoute(readRoute());
    window.addEventListener('hashchange', onChange);
    return () => window.removeEventListener('hashchange', onChange);
  }, []);
  return route;
}

function SignIn({ onSignedIn, error }: { onSignedIn(signed: Signed): void; error?: Error }) {
  const [key, setKey] = useState('');
  const [failure, setFailure] = useState<Error | undefined>(error);
  const [busy, setBusy] = useState(false);
  return (
    <main id="main" className="signin">
      <h1>comply</h1>
      <p>Sign in with an API key. It is kept in this browser tab only and sent to the API of this server.</p>
      <form
        onSubmit={async (event) => {
          event.preventDefault();
          setBusy(true);
          try {
            const signed = await signIn(key.trim());
            sessionStorage.setItem(KEY, key.trim());
            onSignedIn(signed);
          } catch (err) {
            setFailure(err as Error);
          } finally {
            setBusy(false);
          }
        }}
      >
        <label htmlFor="api-key">API key</label>
        <input
          id="api-key"
          name="api-key"
          type="password"
          autoComplete="off"
          spellCheck={false}
          required
          value={key}
          onChange={(event) => setKey(event.target.value)}
        />
        <button type="submit" disabled={busy}>
          Sign in
        </button>
      </form>
      {failure ? <ErrorText error={failure} /> : null}
    </main>
  );
}

function Console({ signed, onSignOut }: { signed: Signed; onSignOut(): void }) {
  const route = useRoute();
  const [orgId, setOrgId] = useState(() => {
    const stored = sessionStorage.getItem(ORG);
    return signed.orgs.find((org) => org.orgId === stored)?.orgId ?? signed.orgs[0]?.orgId ?? '';
  });
  const [version, setVersion] = useState(0);
  const changed = useCallback(() => setVersion((n) => n + 1), []);
  const org = signed.orgs.find((candidate) => candidate.orgId === orgId);
  const session: Session | null = useMemo(
    () =>
      org ? { api: signed.api, me: signed.me, orgId: org.orgId, orgName: org.name, version, changed } : null,
    [signed, org, version, changed],
  );
  const [page, ...params] = route;
  const current = routeOf(page);
  useEffect(() => {
    document.title = `${current.name} · comply`;
  }, [current]);
  return (
    <>
      <a className="skip" href="#main">
        Skip to content
      </a>
      <header className="top">
        <span className="brand">comply</span>
        {signed.me.platform ? (
          <label className="org-picker">
            Organization{' '}
            <select
              value={orgId}
              onChange={(event) => {
                setOrgId(event.target.value);
                sessionStorage.setItem(ORG, event.target.value);
              }}
            >
              {signed.orgs.map((candidate) => (
                <option key={candidate.orgId} value={candidate.orgId}>
                  {candidate.name} ({candidate.orgId})
                </option>
              ))}
            </select>
          </label>
        ) : (
          <span className="org-name">{org?.name}</span>
        )}
        <span className="key-info" title="What this key may do">
          {signed.me.platform ? 'platform key' : signed.me.scopes.join(' · ')}
        </span>
        <button type="button" className="link" onClick={onSignOut}>
          Sign out
        </button>
      </header>
      <nav className="side" aria-label="Sections">
        <ul>
          {ROUTES.map(({ id, name }) => (
            <li key={id}>
              <a href={pageHref(id)} aria-current={page === id ? 'page' : undefined}>
                {name}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <main id="main" tabIndex={-1}>
        {!session ? (
          <p>No organization exists yet: create one with the CLI (`comply orgs create`).</p>
        ) : (
          <SessionContext.Provider value={session}>{current.page(params)}</SessionContext.Provider>
        )}
      </main>
    </>
  );
}

function App() {
  const [signed, setSigned] = useState<Signed | null>(null);
  const [restoring, setRestoring] = useState(() => sessionStorage.getItem(KEY) !== null);
  const [error, setError] = useState<Error | undefined>();
  useEffect(() => {
    const stored = sessionStorage.getItem(KEY);
    if (!stored) return;
    signIn(stored).then(
      (result) => {
        setSigned(result);
        setRestoring(false);
      },
      (err: Error) => {
        sessionStorage.removeItem(KEY);
        setError(err);
        setRestoring(false);
      },
    );
  }, []);
  useEffect(() => {
    const onRefused = () => {
      sessionStorage.removeItem(KEY);
      setSigned(null);
      setError(new Error('The API no longer accepts this key: sign in again.'));
    };
    window.addEventListener(UNAUTHORIZED, onRefused);
    return () => window.removeEventListener(UNAUTHORIZED, onRefused);
  }, []);
  if (restoring) return <p className="muted">Signing in…</p>;
  if (!signed) return <SignIn onSignedIn={setSigned} error={error} />;
  return (
    <Console
      signed={signed}
      onSignOut={() => {
        sessionStorage.removeItem(KEY);
        sessionStorage.removeItem(ORG);
        setSigned(null);
        setError(undefined);
      }}
    />
  );
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
