import type { FastifyBaseLogger } from 'fastify';
import type { Bindings, ChildLoggerOptions, Level, LogFn } from 'pino';

type Parent = FastifyBaseLogger & { isLevelEnabled(level: Level): boolean };

/**
 * The logger Fastify gives each request, bound to its id. pino makes a child by serializing its bindings
 * (about two microseconds), and most requests log nothing at the configured level: this one makes the
 * child on the first message that will be written, so its lines are exactly the child's.
 */
class DeferredRequestLogger {
  private made: FastifyBaseLogger | undefined;

  constructor(
    private readonly parent: Parent,
    private readonly bindings: Bindings,
    private readonly options: ChildLoggerOptions,
  ) {}

  private get logger(): FastifyBaseLogger {
    this.made ??= this.parent.child(this.bindings, this.options);
    return this.made;
  }

  get level(): string {
    return this.made?.level ?? this.parent.level;
  }

  set level(level: string) {
    this.logger.level = level;
  }

  /** Until the child exists it has the parent's level; once it does, pino itself skips what is below. */
  private write(level: Level, args: Parameters<LogFn>): void {
    if (this.made || this.parent.isLevelEnabled(level)) {
      (this.logger[level] as (...args: Parameters<LogFn>) => void)(...args);
    }
  }

  fatal(...args: Parameters<LogFn>): void {
    this.write('fatal', args);
  }
  error(...args: Parameters<LogFn>): void {
    this.write('error', args);
  }
  warn(...args: Parameters<LogFn>): void {
    this.write('warn', args);
  }
  info(...args: Parameters<LogFn>): void {
    this.write('info', args);
  }
  debug(...args: Parameters<LogFn>): void {
    this.write('debug', args);
  }
  trace(...args: Parameters<LogFn>): void {
    this.write('trace', args);
  }
  silent(): void {}

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.logger.child(bindings, options);
  }
}

/**
 * Fastify's `childLoggerFactory`. A route with a log level of its own gets its child at once (the level
 * decides what is written); every other request a deferred one.
 */
export function requestLogger(
  logger: FastifyBaseLogger,
  bindings: Bindings,
  options: ChildLoggerOptions,
): FastifyBaseLogger {
  const parent = logger as Parent;
  if (options.level !== undefined || typeof parent.isLevelEnabled !== 'function') {
    return logger.child(bindings, options);
  }
  return new DeferredRequestLogger(parent, bindings, options) as unknown as FastifyBaseLogger;
}
