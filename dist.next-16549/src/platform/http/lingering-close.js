/** nginx's defaults (`lingering_time`, `lingering_timeout`): the most, and the longest quiet spell. */
const LINGER_TOTAL_MS = 30_000;
const LINGER_IDLE_MS = 5_000;
/**
 * Closes a connection without losing the response: sends FIN after the response, then reads and discards
 * what the client is still sending until it stops (EOF), goes quiet, or the total bound passes.
 */
function lingeringClose(socket) {
    if (socket.destroyed)
        return;
    let idle;
    const finish = () => {
        clearTimeout(total);
        clearTimeout(idle);
        socket.destroy();
    };
    const total = setTimeout(finish, LINGER_TOTAL_MS);
    const quiet = () => {
        clearTimeout(idle);
        idle = setTimeout(finish, LINGER_IDLE_MS);
    };
    quiet();
    socket.on('data', quiet);
    socket.once('end', finish);
    socket.once('close', finish);
    socket.end();
    // Keep reading even if the HTTP parser has stopped pulling: the bytes are discarded.
    socket.resume();
}
/**
 * When Fastify refuses a request whose body is still arriving (over the size limit, unreadable), it
 * answers with `Connection: close`, and Node would then destroy the socket while the client is still
 * writing: many clients (Node's own fetch among them) then report EPIPE instead of the answer. Such a
 * connection gets a bounded lingering close instead, as nginx and Apache do, so the answer reaches the
 * client.
 */
export function registerLingeringClose(app) {
    app.addHook('onSend', (request, reply, payload, done) => {
        if (!request.raw.complete && reply.getHeader('connection') === 'close') {
            const socket = request.raw.socket;
            // Node's server calls destroySoon() once a `Connection: close` response is written.
            socket.destroySoon = () => lingeringClose(socket);
        }
        done(null, payload);
    });
}
//# sourceMappingURL=lingering-close.js.map