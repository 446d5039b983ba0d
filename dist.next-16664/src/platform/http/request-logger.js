/** Query parameters whose values are credentials, by name: `api_key`, `access_token`, `client_secret`… */
const SECRET_NAME = /key|token|secret|passw|auth|credential|session|signature|sig$/i;
/**
 * The URL with the values of credential-like query parameters replaced by `[REDACTED]`: a key pasted
 * into a URL must not reach the log. Other parameters stay, so that one request can be told from another.
 */
export function redactUrl(url) {
    const start = url.indexOf('?');
    if (start < 0)
        return url;
    const query = url
        .slice(start + 1)
        .split('&')
        .map((pair) => {
        const end = pair.indexOf('=');
        const name = end < 0 ? pair : pair.slice(0, end);
        let decoded = name;
        try {
            decoded = decodeURIComponent(name.replace(/\+/g, ' '));
        }
        catch {
            // A malformed escape is judged by its raw text.
        }
        return end >= 0 && SECRET_NAME.test(decoded) ? `${name}=[REDACTED]` : pair;
    });
    return `${url.slice(0, start)}?${query.join('&')}`;
}
/** Fastify's own `req` serializer (the fields of its "incoming request" line). */
const serializeRequest = (request) => ({
    method: request.method,
    url: request.url,
    version: request.headers?.['accept-version'],
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
});
const redacting = (serialize) => (request) => {
    const fields = serialize(request);
    return typeof fields?.url === 'string' ? { ...fields, url: redactUrl(fields.url) } : fields;
};
const REDACTING_SERIALIZERS = { req: redacting(serializeRequest) };
/** The child's options, with its `req` serializer redacting the URL's credentials. */
function redactingOptions(options) {
    const own = options.serializers?.req;
    return {
        ...options,
        serializers: own
            ? { ...options.serializers, req: redacting(own) }
            : { ...options.serializers, ...REDACTING_SERIALIZERS },
    };
}
/**
 * The logger Fastify gives each request, bound to its id. pino makes a child by serializing its bindings
 * (about two microseconds), and most requests log nothing at the configured level: this one makes the
 * child on the first message that will be written, so its lines are exactly the child's.
 */
class DeferredRequestLogger {
    parent;
    bindings;
    options;
    made;
    constructor(parent, bindings, options) {
        this.parent = parent;
        this.bindings = bindings;
        this.options = options;
    }
    get logger() {
        this.made ??= this.parent.child(this.bindings, redactingOptions(this.options));
        return this.made;
    }
    get level() {
        return this.made?.level ?? this.parent.level;
    }
    set level(level) {
        this.logger.level = level;
    }
    /** Until the child exists it has the parent's level; once it does, pino itself skips what is below. */
    write(level, args) {
        if (this.made || this.parent.isLevelEnabled(level)) {
            this.logger[level](...args);
        }
    }
    fatal(...args) {
        this.write('fatal', args);
    }
    error(...args) {
        this.write('error', args);
    }
    warn(...args) {
        this.write('warn', args);
    }
    info(...args) {
        this.write('info', args);
    }
    debug(...args) {
        this.write('debug', args);
    }
    trace(...args) {
        this.write('trace', args);
    }
    silent() { }
    child(bindings, options) {
        return this.logger.child(bindings, options);
    }
}
/**
 * Fastify's `childLoggerFactory`. A route with a log level of its own gets its child at once (the level
 * decides what is written); every other request a deferred one.
 */
export function requestLogger(logger, bindings, options) {
    const parent = logger;
    if (options.level !== undefined || typeof parent.isLevelEnabled !== 'function') {
        return logger.child(bindings, redactingOptions(options));
    }
    return new DeferredRequestLogger(parent, bindings, options);
}
//# sourceMappingURL=request-logger.js.map