import http from 'node:http';
/** Records every response's method, route template, status and latency. Unknown routes count as one. */
export function registerHttpMetrics(app, metrics) {
    app.addHook('onResponse', async (request, reply) => {
        metrics.observeRequest(request.method, request.routeOptions.url ?? 'unmatched', reply.statusCode, reply.elapsedTime / 1000);
    });
}
/**
 * `GET /metrics` on its own port (COMPLY_METRICS_PORT), outside the API and its keys: bind it where only
 * the scraper reaches it. Everything else there is a 404.
 */
export async function startMetricsServer(metrics, host, port) {
    const server = http.createServer((request, response) => {
        if (request.method !== 'GET' || request.url?.split('?')[0] !== '/metrics') {
            response
                .writeHead(404, { 'content-type': 'text/plain; charset=utf-8' })
                .end('Not found: try /metrics\n');
            return;
        }
        metrics.render().then((body) => response.writeHead(200, { 'content-type': metrics.contentType }).end(body), () => response.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end('metrics failed\n'));
    });
    await new Promise((resolve, reject) => {
        server.once('error', (error) => {
            // A taken port is a setting to change: say which in one line, without a stack.
            if (error.code !== 'EADDRINUSE')
                return reject(error);
            const taken = new Error(`The metrics port ${port} on ${host} is in use (COMPLY_METRICS_PORT, COMPLY_METRICS_HOST)`);
            taken.stack = taken.message;
            reject(taken);
        });
        server.listen(port, host, () => resolve());
    });
    const address = server.address();
    return {
        url: `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}/metrics`,
        close: () => new Promise((resolve) => {
            server.closeAllConnections();
            server.close(() => resolve());
        }),
    };
}
//# sourceMappingURL=metrics.server.js.map