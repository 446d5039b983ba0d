/** The one HTTP client every CLI command uses; it turns the API's error envelope into a typed error. */
export class ApiError extends Error {
    status;
    code;
    details;
    constructor(status, code, message, details = {}) {
        super(message);
        this.status = status;
        this.code = code;
        this.details = details;
    }
}
export class ConnectionError extends Error {
}
export class ApiClient {
    baseUrl;
    apiKey;
    progress;
    constructor(baseUrl, apiKey, progress = (_label, work) => work()) {
        this.baseUrl = baseUrl;
        this.apiKey = apiKey;
        this.progress = progress;
    }
    url(path, query = {}) {
        const url = new URL(`/api/v1${path}`, this.baseUrl);
        for (const [name, value] of Object.entries(query)) {
            if (value !== undefined)
                url.searchParams.set(name, String(value));
        }
        return url.toString();
    }
    raw(method, path, options = {}) {
        return this.progress(`${method} ${path}`, () => this.send(method, path, options));
    }
    async send(method, path, options) {
        let response;
        try {
            response = await fetch(this.url(path, options.query), {
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
        const body = Buffer.from(await response.arrayBuffer());
        if (!response.ok) {
            let envelope = {};
            try {
                envelope = JSON.parse(body.toString('utf8'));
            }
            catch {
                // Not our envelope (a proxy, say): report the status alone.
            }
            throw new ApiError(response.status, envelope.error?.code ?? `HTTP_${response.status}`, envelope.error?.message ?? response.statusText, envelope.error?.details ?? {});
        }
        return { status: response.status, headers: response.headers, body };
    }
    async request(method, path, options = {}) {
        const response = await this.raw(method, path, options);
        return (response.body.length ? JSON.parse(response.body.toString('utf8')) : null);
    }
    get = (path, query) => this.request('GET', path, { query });
    post = (path, body) => this.request('POST', path, { body });
    put = (path, body) => this.request('PUT', path, { body });
    delete = (path) => this.request('DELETE', path);
}
//# sourceMappingURL=api-client.js.map