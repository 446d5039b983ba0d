import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
/**
 * The web console: the static files `vite build` writes into dist/console, served at `/` (the page) and
 * `/assets/*` (hashed scripts and styles) without a key. The page itself calls the API with the key the
 * user signs in with; it routes with the URL fragment, so no other path belongs to it.
 */
/** dist/console seen from src/features/console (tsx, tests) and from dist/src/features/console (the compiled daemon). */
export function findConsoleDir() {
    const candidates = [
        path.resolve(import.meta.dirname, '../../../dist/console'),
        path.resolve(import.meta.dirname, '../../../console'),
    ];
    return candidates.find((dir) => fs.existsSync(path.join(dir, 'index.html')) && isBuilt(dir)) ?? null;
}
/** The console's source folder holds an index.html too: only a built one has its assets beside it. */
const isBuilt = (dir) => fs.existsSync(path.join(dir, 'assets'));
export const CONSOLE_CSP = [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    "connect-src 'self'",
    "manifest-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
].join('; ');
function secure(reply) {
    return reply
        .header('content-security-policy', CONSOLE_CSP)
        .header('x-content-type-options', 'nosniff')
        .header('referrer-policy', 'no-referrer')
        .header('x-frame-options', 'DENY')
        .header('cross-origin-opener-policy', 'same-origin');
}
export async function consoleRoutes(app, options) {
    await app.register(fastifyStatic, {
        root: options.dir,
        serve: false,
        preCompressed: true,
        index: false,
    });
    const config = { public: true };
    const schema = { hide: true };
    const page = (_request, reply) => secure(reply).header('cache-control', 'no-cache').sendFile('index.html', { cacheControl: false });
    app.get('/', { config, schema }, page);
    app.get('/index.html', { config, schema }, page);
    app.get('/assets/*', { config, schema }, (request, reply) => 
    // File names carry a hash of their content: a cached copy never goes stale.
    secure(reply).sendFile(path.posix.join('assets', request.params['*']), {
        maxAge: 365 * 24 * 3600 * 1000,
        immutable: true,
    }));
}
//# sourceMappingURL=console.routes.js.map