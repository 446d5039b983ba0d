import type { Server } from 'node:http';
import Provider from 'oidc-provider';
import { freePort } from './free-port.js';

export interface TestAccount {
  email: string;
  email_verified: boolean;
  name?: string;
}

export interface TestOidcProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  close(): Promise<void>;
}

/**
 * A real, certified OpenID Provider (oidc-provider) on a free loopback port, with one confidential client
 * whose redirect URI is `redirectUri`. Its development sign-in form accepts any login: the login typed names
 * the account in `accounts`.
 */
export async function startOidcProvider(
  redirectUri: string,
  accounts: Record<string, TestAccount>,
): Promise<TestOidcProvider> {
  const port = await freePort();
  const issuer = `http://127.0.0.1:${port}`;
  const clientId = 'comply';
  const clientSecret = 'comply-test-client-secret-0123456789';
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: [redirectUri],
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
    ],
    async findAccount(_ctx, sub) {
      const account = accounts[sub];
      if (!account) return undefined;
      return { accountId: sub, claims: async () => ({ sub, ...account }) };
    },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    cookies: { keys: ['comply-test-provider-cookie-key'] },
    features: { devInteractions: { enabled: true } },
  });
  const server: Server = await new Promise((resolve) => {
    const listening = provider.listen(port, '127.0.0.1', () => resolve(listening));
  });
  return {
    issuer,
    clientId,
    clientSecret,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** Cookies as a browser keeps them for one site, by name (enough for the provider's and the daemon's). */
export class CookieJar {
  private readonly cookies = new Map<string, string>();

  take(headers: Headers | Record<string, string | string[] | undefined>): void {
    const lines = headers instanceof Headers ? headers.getSetCookie() : [headers['set-cookie'] ?? []].flat();
    for (const line of lines) {
      const [pair] = line.split(';');
      const at = pair.indexOf('=');
      this.cookies.set(pair.slice(0, at).trim(), pair.slice(at + 1).trim());
    }
  }

  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }
}

/**
 * Walks the provider's side of a sign-in as a browser would: from the authorization URL through its sign-in
 * form (typing `login`) and its consent form, to the redirect back to the client. Returns that redirect.
 */
export async function signInAtProvider(authorizationUrl: string, login: string): Promise<URL> {
  const jar = new CookieJar();
  let url = authorizationUrl;
  let form: URLSearchParams | null = null;
  for (let step = 0; step < 20; step += 1) {
    const response = await fetch(url, {
      method: form ? 'POST' : 'GET',
      redirect: 'manual',
      headers: {
        cookie: jar.header(),
        ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      body: form ?? undefined,
    });
    jar.take(response.headers);
    form = null;
    const location = response.headers.get('location');
    if (location) {
      const next = new URL(location, url);
      if (next.origin !== new URL(authorizationUrl).origin) return next;
      url = next.toString();
      continue;
    }
    const page = await response.text();
    const action = /action="([^"]+)"/.exec(page)?.[1];
    if (!action)
      throw new Error(`The provider answered ${response.status} without a form: ${page.slice(0, 300)}`);
    url = new URL(action.replaceAll('&amp;', '&'), url).toString();
    form = page.includes('name="login"')
      ? new URLSearchParams({ prompt: 'login', login, password: 'any' })
      : new URLSearchParams({ prompt: 'consent' });
  }
  throw new Error('The provider never redirected back');
}
