import { errorResponses } from '../../shared/schemas.js';
import { FrameworkDetailSchema, FrameworkListSchema, FrameworkParams, ImportBody, ImportQuery, ImportResultSchema, MappingCollectionSchema, } from './cte.schemas.js';
import { frameworkDetail, importCatalog, listFrameworks, mappingCollection } from './frameworks.service.js';
import { currentLibrary, heldLibrary } from './library.service.js';
import { enqueueEmbeddings } from './search/embeddings.job.js';
/** OSCAL catalogs are large (SP 800-53 rev5 is 1.7 MB minified, more when pretty-printed). */
export const IMPORT_BODY_LIMIT = 25 * 1024 * 1024;
export const frameworkRoutes = async function frameworkRoutes(app, { ctx }) {
    app.get('/frameworks', {
        schema: {
            tags: ['cte'],
            summary: 'The frameworks the engine analyses: built in and imported',
            response: { 200: FrameworkListSchema, ...errorResponses },
        },
    }, async () => listFrameworks((await heldLibrary(ctx, ctx.db.em())).library));
    app.get('/frameworks/:frameworkId', {
        schema: {
            tags: ['cte'],
            summary: 'One framework with its domains and controls (requirements)',
            params: FrameworkParams,
            response: { 200: FrameworkDetailSchema, ...errorResponses },
        },
    }, async (request) => frameworkDetail(await heldLibrary(ctx, ctx.db.em()), request.params.frameworkId));
    app.post('/frameworks/import', {
        bodyLimit: IMPORT_BODY_LIMIT,
        config: { scope: 'admin' },
        schema: {
            tags: ['cte'],
            summary: 'Import an OSCAL catalog as a framework (admin)',
            description: 'Groups become domains, controls and enhancements requirements; withdrawn ones are skipped and ' +
                'parameter placeholders resolved. The id is a slug of the catalog title unless `frameworkId` is ' +
                'given; importing the same id again replaces the framework (201 when new, 200 otherwise).',
            querystring: ImportQuery,
            body: ImportBody,
            response: { 200: ImportResultSchema, 201: ImportResultSchema, ...errorResponses },
        },
    }, async (request, reply) => {
        const em = ctx.db.em();
        const result = await importCatalog(em, request.body, { frameworkId: request.query.frameworkId });
        if (result.outcome !== 'unchanged') {
            ctx.readCache.libraryChanged();
            const { revision } = await currentLibrary(em);
            // The import is committed: a queue hiccup only delays the stored vectors (search computes them).
            await enqueueEmbeddings(ctx.jobs, ctx.config.embeddings, revision).catch((error) => request.log.warn({ err: error }, 'could not queue the embeddings job'));
        }
        if (result.outcome === 'created') {
            reply.status(201).header('location', `/api/v1/cte/frameworks/${encodeURIComponent(result.id)}`);
        }
        return result;
    });
    app.get('/mappings', {
        schema: {
            tags: ['cte'],
            summary: 'The crosswalk as an OSCAL 1.2.1 mapping-collection',
            response: { 200: MappingCollectionSchema, ...errorResponses },
        },
    }, async () => mappingCollection((await heldLibrary(ctx, ctx.db.em())).library));
};
//# sourceMappingURL=frameworks.routes.js.map