import { ISO_42001, OSCAL_FORMATS, type OscalFormat } from '../../../shared/vocabulary.js';
import type { OrgExportData } from '../export.types.js';
import { type ExportArtifact, fileNamePart, spooledArtifact, yieldToLoop } from '../export-artifact.js';
import { Spool, type SpoolRange } from '../spool.js';
import { OSCAL_VERSION, writeOscalFiles } from './index.js';
import { zipIntoSpool } from './oscal-zip.js';

export { OSCAL_FORMATS, type OscalFormat };

/** `oscal-acme-2026-11-22.json`; another framework than ISO/IEC 42001 is named, a snapshot by its label. */
function oscalFileName(data: OrgExportData, format: OscalFormat): string {
  const date = /^\d{4}-\d{2}-\d{2}/.exec(data.generatedAt)?.[0] ?? 'undated';
  const framework =
    data.framework && data.framework.id !== ISO_42001 ? `-${fileNamePart(data.framework.id, 80)}` : '';
  const snapshot = data.snapshot ? `-${fileNamePart(data.snapshot.label)}` : '';
  return `oscal-${fileNamePart(data.org.orgId)}${framework}-${date}${snapshot}.${format}`;
}

/**
 * The organization's OSCAL package as the JSON envelope of the contract or as a zip of its five files.
 * Nothing invalid leaves: `writeOscalFiles` checks every document and reference and throws an
 * OscalValidationError otherwise. The documents, and the archive made of them, are written to a spool (a
 * temporary file), so a large package is never held in memory; large packages give way to other requests as
 * they are written.
 */
export async function produceOscalExport(data: OrgExportData, format: OscalFormat): Promise<ExportArtifact> {
  const spool = new Spool();
  try {
    const files = await writeOscalFiles(data, { pause: yieldToLoop, spool });
    const fileName = oscalFileName(data, format);
    if (format === 'zip') {
      // Dated by the data, not the clock: the same state always zips to the same bytes.
      const archive = await zipIntoSpool(files, new Date(data.lastModified), spool);
      return spooledArtifact({ contentType: 'application/zip', fileName }, spool, [archive]);
    }
    const text = (value: string): Buffer => Buffer.from(value, 'utf8');
    // The documents go out from the spool as they are, around the envelope's text: nothing is copied.
    const envelope: (Buffer | SpoolRange)[] = [
      text(`{"oscal-package":{"oscal-version":${JSON.stringify(OSCAL_VERSION)},"documents":{`),
    ];
    for (const [i, file] of files.entries()) {
      envelope.push(text(`${i > 0 ? ',' : ''}${JSON.stringify(file.name)}:`), file.range);
    }
    envelope.push(text('}}}'));
    return spooledArtifact({ contentType: 'application/json; charset=utf-8', fileName }, spool, envelope);
  } catch (error) {
    spool.release();
    throw error;
  }
}
