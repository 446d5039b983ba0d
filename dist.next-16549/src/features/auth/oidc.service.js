import * as oidc from 'openid-client';
import { forbidden, serviceUnavailable } from '../../platform/errors.js';
export const PENDING_COOKIE = 'comply_oidc';
export const CALLBACK_PATH = '/api/v1/auth/oidc/callback';
/**
 * Single sign-on with OpenID Connect: the authorization code flow with PKCE, `state` and `nonce`, through
 * openid-client (certified). The provider's metadata is discovered on first use and kept for the app's life;
 * a failed discovery is tried again on the next sign-in. An `http:` issuer is allowed only on loopback
 * addresses (a provider run beside the daemon, as the tests do).
 */
export class OidcSignIn {
    settings;
    publicUrl;
    configuration;
    constructor(settings, publicUrl) {
        this.settings = settings;
        this.publicUrl = publicUrl;
    }
    discover() {
        this.configuration ??= (async () => {
            const issuer = new URL(this.settings.issuer);
            const loopback = ['localhost', '127.0.0.1', '[::1]'].includes(issuer.hostname);
            return oidc.discovery(issuer, this.settings.clientId, this.settings.clientSecret, undefined, issuer.protocol === 'http:' && loopback ? { execute: [oidc.allowInsecureRequests] } : undefined);
        })();
        this.configuration.catch(() => {
            this.configuration = undefined;
        });
        return this.configuration.catch((error) => {
            throw serviceUnavailable(`The OpenID provider cannot be reached (${error.message})`);
        });
    }
    get redirectUri() {
        return new URL(CALLBACK_PATH, this.publicUrl).toString();
    }
    /** The provider's authorization URL, and what the callback will need to check its answer. */
    async start() {
        const configuration = await this.discover();
        const pending = { verifier: oidc.randomPKCECodeVerifier(), state: oidc.randomState(), nonce: oidc.randomNonce() };
        const url = oidc.buildAuthorizationUrl(configuration, {
            redirect_uri: this.redirectUri,
            scope: 'openid email profile',
            code_challenge: await oidc.calculatePKCECodeChallenge(pending.verifier),
            code_challenge_method: 'S256',
            state: pending.state,
            nonce: pending.nonce,
        });
        return { url: url.toString(), pending };
    }
    /**
     * Exchanges the callback's code and returns the email the ID token vouches for; refuses (403) an answer
     * that does not match the pending sign-in, and an email the provider has not verified.
     */
    async finish(callbackUrl, pending) {
        const configuration = await this.discover();
        let claims;
        try {
            const tokens = await oidc.authorizationCodeGrant(configuration, callbackUrl, {
                pkceCodeVerifier: pending.verifier,
                expectedState: pending.state,
                expectedNonce: pending.nonce,
                idTokenExpected: true,
            });
            claims = tokens.claims();
        }
        catch (error) {
            throw forbidden(`Single sign-on failed: ${error.message}`, { reason: 'sso_failed' });
        }
        if (typeof claims?.email !== 'string' || claims.email_verified !== true) {
            throw forbidden('The identity provider did not vouch for a verified email', { reason: 'email_not_verified' });
        }
        return claims.email;
    }
}
export function encodePending(pending) {
    return Buffer.from(JSON.stringify(pending)).toString('base64url');
}
export function decodePending(value) {
    if (!value)
        return null;
    try {
        const pending = JSON.parse(Buffer.from(value, 'base64url').toString('utf8'));
        const valid = [pending.verifier, pending.state, pending.nonce].every((part) => typeof part === 'string');
        return valid ? pending : null;
    }
    catch {
        return null;
    }
}
//# sourceMappingURL=oidc.service.js.map