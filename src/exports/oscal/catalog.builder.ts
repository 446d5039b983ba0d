import type { ExportControl } from '../export.types.js';
import { EXPORT_FRAMEWORK } from '../framework.js';
import type { OscalCatalogDocument, OscalControl, OscalGroup } from './oscal.types.js';
import { documentMetadata, type OscalContext } from './oscal-context.js';
import { catalogUuid, oscalControlId, oscalStatementId } from './oscal-ids.js';
import { markupLine, markupMultiline } from './oscal-text.js';

/** Zero-padded numbers so that tools sorting by `sort-id` put A.10 after A.9. */
function sortId(controlId: string): string {
  return oscalControlId(controlId).replace(/\d+/g, (n) => n.padStart(2, '0'));
}

function catalogControl(control: ExportControl): OscalControl {
  return {
    id: oscalControlId(control.controlId),
    title: markupLine(control.title, control.controlId),
    props: [
      { name: 'label', value: control.controlId },
      { name: 'sort-id', value: sortId(control.controlId) },
    ],
    parts: [
      {
        id: oscalStatementId(control.controlId),
        name: 'statement',
        prose: markupMultiline(control.description, control.title),
      },
    ],
  };
}

/** ISO/IEC 42001 Annex A as an OSCAL catalog: identifiers, titles and our own summaries only. */
export function buildCatalog(ctx: OscalContext): OscalCatalogDocument {
  const groups = new Map<string, OscalGroup>();
  for (const control of ctx.controls) {
    let group = groups.get(control.domain);
    if (!group) {
      group = {
        id: oscalControlId(control.domain),
        title: markupLine(control.domainTitle, control.domain),
        props: [{ name: 'label', value: control.domain }],
        controls: [],
      };
      groups.set(control.domain, group);
    }
    group.controls?.push(catalogControl(control));
  }
  const catalog: OscalCatalogDocument['catalog'] = {
    uuid: catalogUuid,
    metadata: documentMetadata(ctx, `${EXPORT_FRAMEWORK.name} ${EXPORT_FRAMEWORK.scope} controls`, {
      version: EXPORT_FRAMEWORK.version,
      remarks:
        'Identifiers and titles of the Annex A controls. Each statement is a summary in our own words, not the text of the standard.',
    }),
  };
  if (groups.size > 0) catalog.groups = [...groups.values()];
  return { catalog };
}
