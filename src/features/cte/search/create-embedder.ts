/** Chooses the embedder: the local transformers model when present, else the built-in one. */
import type { Framework } from '../framework.types.js';
import { BuiltinEmbedder, type BuiltinEmbedderOptions } from './builtin-embedder.js';
import { type Embedder, libraryDocuments } from './embedder.js';
import { loadTransformersEmbedder } from './transformers-embedder.js';

export interface CreateEmbedderOptions {
  /** Local model directory; without it the built-in embedder is used straight away. */
  modelDir?: string;
  modelName?: string;
  /** The requirement corpus the built-in embedder is fitted on. */
  frameworks: readonly Framework[];
  builtin?: BuiltinEmbedderOptions;
  log?: { info(message: string): void; warn(message: string): void };
}

/** Fits the built-in embedder on the requirements of some frameworks. */
export function fitBuiltinEmbedder(
  frameworks: readonly Framework[],
  options?: BuiltinEmbedderOptions,
): BuiltinEmbedder {
  const corpus = libraryDocuments(frameworks).map((document) => ({
    text: document.text,
    emphasis: document.title,
  }));
  return BuiltinEmbedder.fit(corpus, options);
}

export async function createEmbedder(options: CreateEmbedderOptions): Promise<Embedder> {
  const log = options.log ?? { info: () => {}, warn: (message: string) => process.emitWarning(message) };
  if (options.modelDir) {
    try {
      const embedder = await loadTransformersEmbedder({
        modelDir: options.modelDir,
        modelName: options.modelName,
      });
      log.info(`Embeddings: ${embedder.model} (${embedder.dimension} dimensions) from ${options.modelDir}`);
      return embedder;
    } catch (error) {
      const reason = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
      log.warn(
        `Embeddings: cannot load ${options.modelName ?? 'the model'} from ${options.modelDir} (${reason}); using the built-in embedder`,
      );
    }
  }
  return fitBuiltinEmbedder(options.frameworks, options.builtin);
}
