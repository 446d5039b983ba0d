import { BuiltinEmbedder } from './builtin-embedder.js';
import { libraryDocuments } from './embedder.js';
import { loadTransformersEmbedder } from './transformers-embedder.js';
/** Fits the built-in embedder on the requirements of some frameworks. */
export function fitBuiltinEmbedder(frameworks, options) {
    const corpus = libraryDocuments(frameworks).map((document) => ({
        text: document.text,
        emphasis: document.title,
    }));
    return BuiltinEmbedder.fit(corpus, options);
}
export async function createEmbedder(options) {
    const log = options.log ?? { info: () => { }, warn: (message) => process.emitWarning(message) };
    if (options.modelDir) {
        try {
            const embedder = await loadTransformersEmbedder({
                modelDir: options.modelDir,
                modelName: options.modelName,
            });
            log.info(`Embeddings: ${embedder.model} (${embedder.dimension} dimensions) from ${options.modelDir}`);
            return embedder;
        }
        catch (error) {
            const reason = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
            log.warn(`Embeddings: cannot load ${options.modelName ?? 'the model'} from ${options.modelDir} (${reason}); using the built-in embedder`);
        }
    }
    return fitBuiltinEmbedder(options.frameworks, options.builtin);
}
//# sourceMappingURL=create-embedder.js.map