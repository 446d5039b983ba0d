import { apiErrorOf, ConnectionError } from './errors.js';
/**
 * The one HTTP client of every surface (CLI, MCP server, gate, web console): it runs in Node and in the
 * browser alike, so it uses fetch and web types only, and it turns the API's error envelope into an ApiError.
 */
export { ApiError, ConnectionError } from './errors.js';
const decoder = new TextDecoder();
export class ApiClient {
    baseUrl;
    apiKey;
    options;
    constructor(baseUrl, apiKey, options = {}) {
        this.baseUrl = baseUrl;
        this.apiKey = apiKey;
        this.options = typeof options === 'function' ? { progress: options } : options;
    }
    url(path, query = {}) {
        const url = new URL(`/api/v1${path}`, this.baseUrl);
        for (const [name, value] of Object.entries(query)) {
            if (value !== undefined && value !== null)
                url.searchParams.set(name, String(value));
        }
        return url.toString();
    }
    raw(method, path, options = {}) {
        const { progress } = this.options;
        const send = () => this.send(method, path, options);
        return progress ? progress(`${method} ${path}`, send) : send();
    }
    async send(method, path, options) {
        let response;
        try {
            response = await fetch(this.url(path, options.query), {
                ...this.options.init,
                method,
                headers: {
                    ...(this.apiKey ? { authorization: `Bearer ${this.apiKey}` } : {}),
                    ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
                },
                body: options.body === undefined ? undefined : JSON.stringify(options.body),
            });
        }
        catch (error) {
            throw new ConnectionError(`Cannot reach comply at ${this.baseUrl} (${error.cause?.message ?? error.message}). ` +
                'Is the daemon running? Set COMPLY_URL to its address.');
        }
        const body = new Uint8Array(await response.arrayBuffer());
        if (!response.ok) {
            if (response.status === 401)
                this.options.onUnauthorized?.();
            throw apiErrorOf(response.status, response.statusText, decoder.decode(body));
        }
        return { status: response.status, headers: response.headers, body };
    }
    async request(method, path, options = {}) {
        const response = await this.raw(method, path, options);
        return (response.body.length ? JSON.parse(decoder.decode(response.body)) : null);
    }
    get = (path, query) => this.request('GET', path, { query });
    post = (path, body) => this.request('POST', path, { body });
    put = (path, body) => this.request('PUT', path, { body });
    delete = (path) => this.request('DELETE', path);
}
/** A response body as text (an export in CSV or Markdown, say). */
export const textOf = (response) => decoder.decode(response.body);
//# sourceMappingURL=client.js.map