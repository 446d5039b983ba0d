import { type FormEvent, useEffect, useState } from 'react';
import type { SsoConfig } from '../api';
import {
  acceptInvitation,
  authConfig,
  logIn,
  type Signed,
  STORED,
  signIn,
  ssoStartUrl,
} from '../resources/session';
import { ErrorText } from '../ui';

/** The sign-in pages: they run before anyone is signed in, so they hold their own state (no session yet). */

/** What the API says about sign-in: whether SSO is configured, whether the first person is still to come. */
function useAuthConfig(): SsoConfig | null {
  const [config, setConfig] = useState<SsoConfig | null>(null);
  useEffect(() => {
    let live = true;
    // Without an answer the console offers what always works: password and key.
    authConfig().then(
      (answer) => live && setConfig(answer),
      () => live && setConfig({ sso: false, setupPending: false }),
    );
    return () => {
      live = false;
    };
  }, []);
  return config;
}

/** A form's submission: busy while it runs, its failure shown. */
function useSubmit(initial?: Error) {
  const [failure, setFailure] = useState<Error | undefined>(initial);
  const [busy, setBusy] = useState(false);
  const submit = (work: () => Promise<void>) => async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setFailure(undefined);
    try {
      await work();
    } catch (error) {
      setFailure(error as Error);
      setBusy(false);
    }
  };
  return { submit, busy, failure, setFailure };
}

export function SignInPage({
  onSignedIn,
  error,
  keyFirst = false,
}: {
  onSignedIn(signed: Signed): void;
  error?: Error;
  /** Open on the key form (the key of this tab was refused, say). */
  keyFirst?: boolean;
}) {
  const [withKey, setWithKey] = useState(keyFirst);
  const config = useAuthConfig();
  const { submit, busy, failure, setFailure } = useSubmit(error);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [key, setKey] = useState('');
  const switchTo = (toKey: boolean) => {
    setWithKey(toKey);
    setFailure(undefined);
  };
  return (
    <main id="main" className="signin">
      <h1>comply</h1>
      {withKey ? (
        <>
          <p>
            Sign in with an API key. It is kept in this browser tab only and sent to the API of this server.
          </p>
          <form
            onSubmit={submit(async () => {
              const signed = await signIn(key.trim());
              sessionStorage.setItem(STORED.key, key.trim());
              onSignedIn(signed);
            })}
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
          <p>
            <button type="button" className="link" onClick={() => switchTo(false)}>
              Use email and password
            </button>
          </p>
        </>
      ) : (
        <>
          <p>Sign in with your email and password.</p>
          <form
            onSubmit={submit(async () => {
              const signed = await logIn(email.trim(), password);
              localStorage.setItem(STORED.person, '1');
              onSignedIn(signed);
            })}
          >
            <label htmlFor="email">Email</label>
            <input
              id="email"
              name="email"
              type="email"
              autoComplete="username"
              required
              value={email}
              onChange={(event) => setEmail(event.target.value)}
            />
            <label htmlFor="password">Password</label>
            <input
              id="password"
              name="password"
              type="password"
              autoComplete="current-password"
              required
              value={password}
              onChange={(event) => setPassword(event.target.value)}
            />
            <button type="submit" disabled={busy}>
              Sign in
            </button>
          </form>
          {config?.sso ? (
            <p className="sso">
              <a
                className="button"
                href={ssoStartUrl()}
                // The provider sends the browser back to the console with a session cookie.
                onClick={() => localStorage.setItem(STORED.person, '1')}
              >
                Sign in with SSO
              </a>
            </p>
          ) : null}
          <p>
            <button type="button" className="link" onClick={() => switchTo(true)}>
              Use an API key
            </button>
          </p>
        </>
      )}
      {failure ? <ErrorText error={failure} /> : null}
    </main>
  );
}

const MIN_PASSWORD = 12;

/**
 * An invitation link (`#/accept/<token>`): the invited person chooses a password and is signed in. The
 * first-start set-up link is one too; it also asks for the first person's name and email.
 */
export function AcceptInvitationPage({
  token,
  onSignedIn,
}: {
  token: string | null;
  onSignedIn(signed: Signed): void;
}) {
  const config = useAuthConfig();
  const setup = config?.setupPending ?? false;
  const { submit, busy, failure } = useSubmit();
  const [form, setForm] = useState({ name: '', email: '', password: '', repeat: '' });
  const title = setup ? 'Set up comply' : 'Accept your invitation';
  useEffect(() => {
    document.title = `${title} · comply`;
  }, [title]);
  if (!token) {
    return (
      <main id="main" className="signin">
        <h1>{title}</h1>
        <p role="alert" className="error">
          This link holds no invitation. Open the link you were sent as it is.
        </p>
        <a href="#/overview">Sign in</a>
      </main>
    );
  }
  return (
    <main id="main" className="signin">
      <h1>{title}</h1>
      <p>
        {setup
          ? 'Create the first person of this comply: a platform administrator, who can then invite everyone else.'
          : 'Choose your password to join. If you already sign in to comply (for another organization), give your password.'}{' '}
        Passwords have at least {MIN_PASSWORD} characters.
      </p>
      {config === null ? (
        <p className="muted">Loading…</p>
      ) : (
        <form
          onSubmit={submit(async () => {
            if (form.password !== form.repeat) throw new Error('The two passwords differ.');
            const signed = await acceptInvitation({
              token,
              password: form.password,
              ...(setup ? { name: form.name.trim(), email: form.email.trim() } : {}),
            });
            localStorage.setItem(STORED.person, '1');
            sessionStorage.removeItem(STORED.key);
            onSignedIn(signed);
          })}
        >
          {setup ? (
            <>
              <label htmlFor="setup-name">Your name</label>
              <input
                id="setup-name"
                autoComplete="name"
                required
                value={form.name}
                onChange={(event) => setForm({ ...form, name: event.target.value })}
              />
              <label htmlFor="setup-email">Your email</label>
              <input
                id="setup-email"
                type="email"
                autoComplete="username"
                required
                value={form.email}
                onChange={(event) => setForm({ ...form, email: event.target.value })}
              />
            </>
          ) : null}
          <label htmlFor="new-password">Password</label>
          <input
            id="new-password"
            type="password"
            autoComplete="new-password"
            minLength={MIN_PASSWORD}
            required
            aria-describedby="password-rule"
            value={form.password}
            onChange={(event) => setForm({ ...form, password: event.target.value })}
          />
          <span id="password-rule" className="muted">
            At least {MIN_PASSWORD} characters.
          </span>
          <label htmlFor="repeat-password">Password again</label>
          <input
            id="repeat-password"
            type="password"
            autoComplete="new-password"
            minLength={MIN_PASSWORD}
            required
            value={form.repeat}
            onChange={(event) => setForm({ ...form, repeat: event.target.value })}
          />
          <button type="submit" disabled={busy}>
            {setup ? 'Create and sign in' : 'Set password and sign in'}
          </button>
        </form>
      )}
      {failure ? <ErrorText error={failure} /> : null}
    </main>
  );
}
