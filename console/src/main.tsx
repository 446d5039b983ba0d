import { StrictMode, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { UNAUTHORIZED } from './api';
import { pageHref, readInvitationToken, readRoute } from './links';
import { resumeSession, type Signed, STORED, signIn, signOut } from './resources/session';
import { ROUTES, type Route, routeOf } from './routes';
import { type Session, SessionContext } from './ui';
import { AcceptInvitationPage, SignInPage } from './views/signin';
import './styles.css';

const { key: KEY, org: ORG, person: PERSON } = STORED;

/** The page and the item it shows (`frameworks/eu-ai-act`): a requirement opened on a framework page is not a new view. */
const viewOf = (route: string[]) => route.slice(0, 2).join('/');

function useRoute(): string[] {
  const [route, setRoute] = useState(readRoute);
  useEffect(() => {
    let shown = readRoute();
    const onChange = () => {
      const next = readRoute();
      // Another view opens at its top, before it renders (a record panel then scrolls itself into view).
      if (viewOf(next) !== viewOf(shown)) window.scrollTo(0, 0);
      shown = next;
      setRoute(next);
    };
    window.addEventListener('hashchange', onChange);
    return () => window.removeEventListener('hashchange', onChange);
  }, []);
  return route;
}

/** The navigation: the current page's entry kept in view where the entries scroll sideways (a phone). */
function Navigation({ routes, current }: { routes: readonly Route[]; current: Route }) {
  const list = useRef<HTMLUListElement>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: each time another page is shown
  useEffect(() => {
    const ul = list.current;
    const link = ul?.querySelector<HTMLElement>('[aria-current="page"]');
    if (!ul || !link || ul.scrollWidth <= ul.clientWidth) return;
    ul.scrollLeft = link.offsetLeft - (ul.clientWidth - link.offsetWidth) / 2;
  }, [current]);
  const section = current.within ?? current.id;
  return (
    <nav className="side" aria-label="Sections">
      <ul ref={list}>
        {routes.map(({ id, name }) => (
          <li key={id}>
            <a href={pageHref(id)} aria-current={section === id ? 'page' : undefined}>
              {name}
            </a>
          </li>
        ))}
      </ul>
    </nav>
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
      org
        ? {
            api: signed.api,
            me: signed.me,
            kind: signed.kind,
            platform: signed.platform,
            person: signed.person,
            orgId: org.orgId,
            orgName: org.name,
            role: org.role,
            can: org.can,
            version,
            changed,
          }
        : null,
    [signed, org, version, changed],
  );
  const [page, ...params] = route;
  const current = routeOf(page);
  // Pages a role may not use (members, the audit trail) are left out of the navigation.
  const shown = ROUTES.filter((candidate) => !candidate.visible || (session && candidate.visible(session)));
  const allowed = shown.includes(current);
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
        {signed.platform || signed.orgs.length > 1 ? (
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
        {signed.person ? (
          <span className="key-info" title="Who is signed in, and their role here">
            {signed.person.name} · {org?.role ?? (signed.platform ? 'platform administrator' : 'no role')}
          </span>
        ) : (
          <span className="key-info" title="What this key may do">
            {signed.me.type === 'key' && !signed.platform ? signed.me.scopes.join(' · ') : 'platform key'}
          </span>
        )}
        <button type="button" className="link" onClick={onSignOut}>
          Sign out
        </button>
      </header>
      <Navigation routes={shown.filter((candidate) => !candidate.within)} current={current} />
      <main id="main" tabIndex={-1}>
        {!session ? (
          signed.person && !signed.platform ? (
            <p>You are not a member of any organization yet: ask an owner to invite you.</p>
          ) : (
            <p>No organization exists yet: create one with the CLI (`comply orgs create`).</p>
          )
        ) : !allowed ? (
          <p role="alert">Your role in {session.orgName} does not include this page.</p>
        ) : (
          <SessionContext.Provider value={session}>{current.page(params)}</SessionContext.Provider>
        )}
      </main>
    </>
  );
}

function App() {
  const route = useRoute();
  const [signed, setSigned] = useState<Signed | null>(null);
  const [restoring, setRestoring] = useState(
    () => sessionStorage.getItem(KEY) !== null || localStorage.getItem(PERSON) !== null,
  );
  const [error, setError] = useState<Error | undefined>();
  const [keyFirst, setKeyFirst] = useState(false);
  const signedKind = useRef<Signed['kind'] | null>(null);
  signedKind.current = signed?.kind ?? null;
  useEffect(() => {
    // A key of this tab, else the session cookie of a person who signed in (by password or SSO) before.
    const stored = sessionStorage.getItem(KEY);
    const restore = stored ? signIn(stored) : localStorage.getItem(PERSON) ? resumeSession() : null;
    restore?.then(
      (result) => {
        if (!result) localStorage.removeItem(PERSON);
        setSigned(result);
        setRestoring(false);
      },
      (err: Error) => {
        sessionStorage.removeItem(KEY);
        localStorage.removeItem(PERSON);
        setKeyFirst(stored !== null);
        setError(err);
        setRestoring(false);
      },
    );
  }, []);
  useEffect(() => {
    const onRefused = () => {
      // Every request in flight may be refused: the first one signs out.
      const kind = signedKind.current;
      if (kind === null) return;
      signedKind.current = null;
      const wasKey = kind === 'key';
      sessionStorage.removeItem(KEY);
      localStorage.removeItem(PERSON);
      setSigned(null);
      setKeyFirst(wasKey);
      setError(
        new Error(
          wasKey
            ? 'The API no longer accepts this key: sign in again.'
            : 'Your session has ended: sign in again.',
        ),
      );
    };
    window.addEventListener(UNAUTHORIZED, onRefused);
    return () => window.removeEventListener(UNAUTHORIZED, onRefused);
  }, []);
  const enter = (result: Signed) => {
    setError(undefined);
    setSigned(result);
  };
  if (route[0] === 'accept') {
    return (
      <AcceptInvitationPage
        token={readInvitationToken()}
        onSignedIn={(result) => {
          // The token leaves the address bar and the history: the console opens on the overview.
          window.location.replace('#/overview');
          enter(result);
        }}
      />
    );
  }
  if (restoring) return <p className="muted">Signing in…</p>;
  if (!signed) return <SignInPage onSignedIn={enter} error={error} keyFirst={keyFirst} />;
  return (
    <Console
      signed={signed}
      onSignOut={async () => {
        // A person's session ends on the server too; a key just leaves this tab.
        await signOut(signed).catch(() => undefined);
        sessionStorage.removeItem(KEY);
        sessionStorage.removeItem(ORG);
        localStorage.removeItem(PERSON);
        setKeyFirst(signed.kind === 'key');
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
