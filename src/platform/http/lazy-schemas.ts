import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import type { Ajv, ValidateFunction } from 'ajv';
import type { FastifyServerOptions } from 'fastify';

/**
 * Route schemas compiled when a route first needs them instead of all at start. Fastify compiles every
 * route's validators (Ajv) and response serializers (fast-json-stringify) as the app gets ready: about a
 * second of CPU for this API, paid by every start of the daemon, a worker's app and each test's app, most of
 * whose routes may never be called. Compiled lazily, a route pays its own few milliseconds once, on its
 * first request. `compileAll()` compiles whatever is still pending, so a test can prove that every schema
 * compiles, as an eager start would.
 */
export interface LazySchemas {
  /** For the Fastify option `schemaController`: response serializers built by Fastify's own compiler. */
  schemaController: NonNullable<FastifyServerOptions['schemaController']>;
  /** For `setValidatorCompiler`: each schema compiled by the Ajv instance for its part of the request. */
  validatorCompiler(
    ajvFor: (httpPart: string | undefined) => Ajv,
  ): (input: { schema: object; httpPart?: string }) => ValidateFunction;
  /** Compiles every schema not compiled yet; returns how many there were. */
  compileAll(): number;
}

export function lazySchemas(): LazySchemas {
  const pending = new Set<() => unknown>();
  const lazily = <T>(compile: () => T): (() => T) => {
    let compiled: T | undefined;
    const get = () => {
      if (compiled === undefined) {
        compiled = compile();
        pending.delete(get);
      }
      return compiled;
    };
    pending.add(get);
    return get;
  };

  return {
    schemaController: {
      compilersFactory: {
        buildSerializer: (externalSchemas: unknown, options: unknown) => {
          const build = SerializerSelector()(externalSchemas as never, options as never);
          return (route: Parameters<typeof build>[0]) => {
            const serializer = lazily(() => build(route));
            return (data: unknown) => serializer()(data);
          };
        },
      },
    },
    validatorCompiler:
      (ajvFor) =>
      ({ schema, httpPart }) => {
        const compiled = lazily(() => ajvFor(httpPart).compile(schema));
        // Fastify reads the errors of a failed validation from the function it was given.
        const validate = ((data: unknown) => {
          const fn = compiled();
          const valid = fn(data);
          validate.errors = fn.errors;
          return valid;
        }) as ValidateFunction;
        return validate;
      },
    compileAll() {
      const count = pending.size;
      for (const compile of [...pending]) compile();
      return count;
    },
  };
}
