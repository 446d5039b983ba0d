import { ISO_42001 } from '../../../shared/vocabulary.js';
import { documentMetadata } from './oscal-context.js';
import { markupLine, markupMultiline, oscalString } from './oscal-text.js';
/**
 * The `sort-id` prop. ISO/IEC 42001: the token with zero-padded numbers, so that tools sorting by it put
 * A.10 after A.9. Other frameworks: the position in the library, which is the framework's own order
 * (`GOVERN` before `MAP`, `Art. 9` before `Art. 10`, `AC-2` before `AC-2(1)`).
 */
function sortIds(ctx) {
    if (ctx.framework.id === ISO_42001) {
        return (control) => ctx.tokens.control(control.controlId).replace(/\d+/g, (n) => n.padStart(2, '0'));
    }
    const width = Math.max(4, String(ctx.controls.length).length);
    return (_control, index) => String(index + 1).padStart(width, '0');
}
function catalogControl(ctx, control, sortId) {
    return {
        id: ctx.tokens.control(control.controlId),
        title: markupLine(control.title, control.controlId),
        props: [
            // The id in the framework's own notation (`Art. 26(6)`), which the token cannot always keep.
            { name: 'label', value: oscalString(control.controlId, ctx.tokens.control(control.controlId)) },
            { name: 'sort-id', value: sortId },
        ],
        parts: [
            {
                id: ctx.tokens.statement(control.controlId),
                name: 'statement',
                prose: markupMultiline(control.description, markupLine(control.title, control.controlId)),
            },
        ],
    };
}
function catalogRemarks(ctx) {
    const { framework } = ctx;
    if (framework.id === ISO_42001) {
        return 'Identifiers and titles of the Annex A controls. Each statement is a summary in our own words, not the text of the standard.';
    }
    const items = `${framework.noun}s`;
    return framework.imported
        ? `The ${items} of ${ctx.frameworkName} as imported from its OSCAL catalog (withdrawn ones left out, parameters resolved in the statements). Each label is the ${framework.noun}'s id in the catalog's notation.`
        : `Identifiers and titles of the ${items} of ${ctx.frameworkName}, with statements as the comply framework library holds them. Each label is the ${framework.noun}'s id in the framework's own notation.`;
}
/**
 * The framework as an OSCAL catalog: identifiers, titles and statements, grouped by domain. Requirements
 * without a domain (every requirement of a regulation such as the EU AI Act) are controls of the catalog.
 */
export function buildCatalog(ctx) {
    const groups = new Map();
    const ungrouped = [];
    const sortId = sortIds(ctx);
    ctx.controls.forEach((control, index) => {
        const element = catalogControl(ctx, control, sortId(control, index));
        if (!control.domain) {
            ungrouped.push(element);
            return;
        }
        let group = groups.get(control.domain);
        if (!group) {
            group = {
                id: ctx.tokens.group(control.domain),
                title: markupLine(control.domainTitle, control.domain),
                props: [{ name: 'label', value: oscalString(control.domain, ctx.tokens.group(control.domain)) }],
                controls: [],
            };
            groups.set(control.domain, group);
        }
        group.controls?.push(element);
    });
    const { framework } = ctx;
    const catalog = {
        uuid: ctx.ids.catalog,
        metadata: documentMetadata(ctx, `${ctx.frameworkLabel} ${framework.noun}s`, {
            version: oscalString(framework.version, '1'),
            remarks: catalogRemarks(ctx),
        }),
    };
    if (ungrouped.length > 0)
        catalog.controls = ungrouped;
    if (groups.size > 0)
        catalog.groups = [...groups.values()];
    return { catalog };
}
//# sourceMappingURL=catalog.builder.js.map