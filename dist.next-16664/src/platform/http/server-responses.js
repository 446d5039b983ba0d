import { STATUS_CODES } from 'node:http';
import { envelope } from '../errors.js';
import { serviceUnavailable } from '../unavailable.js';
/** What Node's HTTP parser refuses before Fastify sees a request, as the envelope's code and status. */
function refusalOf(error) {
    if (error.code === 'HPE_HEADER_OVERFLOW') {
        return { status: 431, code: 'HEADERS_TOO_LARGE', message: 'The request head exceeds 16 KiB' };
    }
    if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
        return { status: 408, code: 'REQUEST_TIMEOUT', message: 'The request was not received in time' };
    }
    return { status: 400, code: 'BAD_REQUEST', message: 'Malformed HTTP request' };
}
/**
 * Fastify's `clientErrorHandler`: requests Node's parser cannot read (an over-long head, broken framing, a
 * timeout) are answered in the error envelope too, then the connection is closed, as Node does itself.
 */
export function clientErrorHandler(error, socket) {
    if (error.code === 'ECONNRESET' || socket.destroyed)
        return;
    const pending = socket._httpMessage;
    if (!socket.writable || pending?.headersSent) {
        socket.destroy(error);
        return;
    }
    const { status, code, message } = refusalOf(error);
    const body = JSON.stringify(envelope(code, message, { reason: error.code ?? 'invalid' }));
    socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
        'Content-Type: application/json; charset=utf-8\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        'Connection: close\r\n\r\n' +
        body);
}
/**
 * While the server closes, requests still arriving on open connections get the envelope's 503 with
 * `Retry-After` (Fastify's own closing answer has neither); requests already running finish normally.
 * Register before any other onRequest hook. Fastify's `return503OnClosing` must be off.
 */
export function registerClosingGuard(app) {
    let closing = false;
    app.addHook('preClose', async () => {
        closing = true;
    });
    // Hooks on every request take a callback rather than return a promise: one promise fewer per request.
    app.addHook('onRequest', (_request, reply, done) => {
        if (!closing)
            return done();
        reply.header('connection', 'close');
        done(serviceUnavailable('The server is shutting down; retry the request', { reason: 'closing' }));
    });
}
//# sourceMappingURL=server-responses.js.map