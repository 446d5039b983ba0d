import { badRequest } from '../errors.js';
import { anyTextOffends, offendingTextFields } from '../text.js';
const holdsNul = (text) => text.includes('\u0000');
/**
 * PostgreSQL text cannot hold NUL (U+0000): refuse it anywhere in the path, query or body with 400 before
 * any handler can pass it to the database, instead of a 500 from deep down.
 */
export function registerNulGuard(app) {
    app.addHook('preValidation', (request, _reply, done) => {
        // Unknown routes answer 404 whatever their input.
        if (!request.routeOptions.url)
            return done();
        const scanBody = !request.routeOptions.config.bodyMayHoldNul;
        if (!anyTextOffends(request.params, holdsNul) &&
            !anyTextOffends(request.query, holdsNul) &&
            !(scanBody && anyTextOffends(request.body, holdsNul)))
            return done();
        const fields = [
            ...offendingTextFields('params', request.params, holdsNul),
            ...offendingTextFields('querystring', request.query, holdsNul),
            ...(scanBody ? offendingTextFields('body', request.body, holdsNul) : []),
        ];
        const message = 'must not contain NUL (U+0000)';
        done(badRequest(`${fields[0]} ${message}`, { fields: fields.map((field) => ({ field, message })) }));
    });
}
//# sourceMappingURL=nul-guard.js.map