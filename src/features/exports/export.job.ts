import type { AppContext } from '../../context.js';
import type { Em } from '../../platform/db/database.js';
import { AppError, type ErrorCode, type ErrorDetails } from '../../platform/errors.js';
import type { JobDefinition } from '../../platform/jobs/jobs.js';
import { exposedGc, releaseFreedMemory } from '../../platform/memory.js';
import { ISO_42001 } from '../../shared/vocabulary.js';
import { loadExportData, loadSnapshotExportData, refuseSnapshotOfOtherFramework } from './export.service.js';
import type { ExportRequester } from './export.types.js';
import { type ExportArtifact, yieldToLoop } from './export-artifact.js';
import { storeExportResult, takeExportResult } from './export-results.store.js';
import { OscalValidationError } from './oscal/index.js';
import { type OscalFormat, produceOscalExport } from './oscal/oscal-export.js';
import { type SoaFormat, UnknownSoaFormatError } from './soa/index.js';
import { produceSoaExport, SOA_EVIDENCE_LIMIT } from './soa/soa-export.js';

export type ExportRequest =
  | {
      kind: 'oscal';
      orgId: string;
      format: OscalFormat;
      /** The framework of the package (any of the library). Jobs queued before it existed mean ISO/IEC 42001. */
      frameworkId: string;
      /** ISO/IEC 42001 only. */
      snapshotId?: string;
    }
  | {
      kind: 'soa';
      orgId: string;
      format: SoaFormat;
      snapshotId?: string;
      /** Who asked for it: the statement's title page names them. */
      exportedBy?: ExportRequester;
    };

export interface ExportJobPayload {
  request: ExportRequest;
  /** When the export was asked for; a retry produces the same document. */
  generatedAt: string;
  /**
   * `inline`: the bytes are the job's result (in-process runs). `stored`: a worker leaves them in
   * the database and returns their id, because queue results travel through Redis.
   */
  delivery: 'inline' | 'stored';
}

export type ExportJobResult =
  | { status: 'done'; artifact: ExportArtifact }
  | { status: 'stored'; resultId: string }
  | { status: 'refused'; error: { code: ErrorCode; message: string; details: ErrorDetails } };

/** Exports held in memory at once by one process: a 100k-evidence package needs a few hundred MB. */
const MAX_CONCURRENT_EXPORTS = 2;
let running = 0;
const waiting: (() => void)[] = [];

async function withExportSlot<T>(work: () => Promise<T>): Promise<T> {
  if (running >= MAX_CONCURRENT_EXPORTS) await new Promise<void>((resolve) => waiting.push(resolve));
  running += 1;
  try {
    return await work();
  } finally {
    running -= 1;
    waiting.shift()?.();
  }
}

/** How long the process must have been without a running export before it collects. */
const COLLECT_AFTER_IDLE_MS = 1000;
let collectTimer: NodeJS.Timeout | undefined;

/** A document this large came from enough objects that collecting them is worth a pause. */
const COLLECT_FROM_BYTES = 8 << 20;

/**
 * Collects what a large export built (its rows, its documents' objects) as soon as the document is written,
 * before it is sent. With the document in a spool, an export leaves little outside the heap, and V8 would
 * otherwise let the heap grow by the whole export's garbage with each export that follows (four in a row
 * took the daemon from 400 to 800 MiB); one major collection of what is then live costs tens of ms.
 */
function collectWhatExportBuilt(artifact: ExportArtifact): void {
  const gc = exposedGc();
  const size = artifact.spooled?.size ?? artifact.body.length;
  if (gc && size >= COLLECT_FROM_BYTES) gc({ type: 'major', execution: 'sync' });
}

/**
 * Collects garbage once no export has run for a second, and gives the freed memory back to the system.
 * An idle process allocates nothing, so the collector would not otherwise run; and a regular collection
 * keeps the freed heap pages mapped for reuse, so the few hundred MB a large export used would stay
 * resident. The last-resort flavour (what V8 does under memory pressure) releases them. Called when an
 * export's bytes have been handed on (sent, stored); a no-op unless Node runs with --expose-gc, as
 * `bin/comply` starts it.
 */
export function collectAfterExport(): void {
  if (!exposedGc()) return;
  clearTimeout(collectTimer);
  collectTimer = setTimeout(() => {
    if (running === 0) releaseFreedMemory();
    else collectAfterExport();
  }, COLLECT_AFTER_IDLE_MS);
  collectTimer.unref();
}

/** Loads the org's state (live or from a snapshot) and renders the requested document. */
export async function produceExport(
  em: Em,
  request: ExportRequest,
  generatedAt: Date,
): Promise<ExportArtifact> {
  if (request.kind === 'oscal') {
    // OSCAL carries every evidence item: one observation and one resource each.
    const frameworkId = request.frameworkId ?? ISO_42001;
    refuseSnapshotOfOtherFramework(frameworkId, request.snapshotId);
    const data = request.snapshotId
      ? await loadSnapshotExportData(em, request.orgId, request.snapshotId, { generatedAt })
      : await loadExportData(em, request.orgId, { generatedAt, frameworkId });
    await yieldToLoop();
    return produceOscalExport(data, request.format);
  }
  const options = { generatedAt, evidenceLimit: SOA_EVIDENCE_LIMIT, history: request.format === 'pdf' };
  const data = request.snapshotId
    ? await loadSnapshotExportData(em, request.orgId, request.snapshotId, options)
    : await loadExportData(em, request.orgId, options);
  await yieldToLoop();
  return produceSoaExport(
    request.exportedBy ? { ...data, exportedBy: request.exportedBy } : data,
    request.format,
  );
}

/** Failures that a retry cannot fix become a result, so that the queue does not retry them. */
function refusal(error: unknown): ExportJobResult | null {
  if (error instanceof OscalValidationError) {
    return {
      status: 'refused',
      error: { code: 'INTERNAL_ERROR', message: error.message, details: { problems: error.total } },
    };
  }
  if (error instanceof UnknownSoaFormatError) {
    return { status: 'refused', error: { code: 'BAD_REQUEST', message: error.message, details: {} } };
  }
  if (error instanceof AppError && error.statusCode < 500) {
    return { status: 'refused', error: { code: error.code, message: error.message, details: error.details } };
  }
  return null;
}

export const exportJob: JobDefinition<ExportJobPayload, ExportJobResult> = {
  name: 'export',
  attempts: 1,
  backoffMs: 500,
  handle: (payload, ctx) =>
    withExportSlot(async () => {
      try {
        const artifact = await produceExport(ctx.db.em(), payload.request, new Date(payload.generatedAt));
        collectWhatExportBuilt(artifact);
        if (payload.delivery === 'inline') return { status: 'done', artifact };
        const resultId = await storeExportResult(ctx.db.em(), artifact);
        collectAfterExport();
        return { status: 'stored', resultId };
      } catch (error) {
        const refused = refusal(error);
        if (!refused) throw error;
        if (error instanceof OscalValidationError) {
          ctx.log.error(
            { problems: error.problems.slice(0, 50) },
            'refused to emit an invalid OSCAL package',
          );
        }
        return refused;
      }
    }),
};

/**
 * Runs an export as a job (on a worker when the queue is BullMQ) and waits for it, at most
 * `config.jobWaitMs`: past that the request fails with 503 rather than hang.
 */
export async function runExport(ctx: AppContext, request: ExportRequest): Promise<ExportArtifact> {
  const timeoutMs = ctx.config.jobWaitMs;
  const payload: ExportJobPayload = {
    request,
    generatedAt: new Date().toISOString(),
    delivery: ctx.jobs.kind === 'bullmq' ? 'stored' : 'inline',
  };
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new AppError(
            'SERVICE_UNAVAILABLE',
            `The export did not finish within ${timeoutMs} ms; try again later`,
            {
              timeoutMs,
            },
          ),
        ),
      timeoutMs,
    );
  });
  const result = await Promise.race([ctx.jobs.run(exportJob, payload, { timeoutMs }), timeout]).finally(() =>
    clearTimeout(timer),
  );
  if (result.status === 'done') return result.artifact;
  if (result.status === 'refused')
    throw new AppError(result.error.code, result.error.message, result.error.details);
  const artifact = await takeExportResult(ctx.db.em(), result.resultId);
  if (!artifact) throw new AppError('INTERNAL_ERROR', 'The finished export could not be collected');
  return artifact;
}
