/**
 * Imports an OSCAL catalog (e.g. NIST SP 800-53 rev5) as a framework: groups become domains (nested groups
 * too), controls and their enhancements become requirements, withdrawn ones are skipped, and parameter
 * placeholders in the statement prose are replaced by the parameter's values, choices or label. The
 * framework id is a slug of the catalog title, so importing the same catalog again replaces it in place.
 */
import { oscalSchemaErrors } from '../../platform/oscal/validation.js';
export class OscalImportError extends Error {
    problems;
    constructor(message, problems = []) {
        super(problems.length > 0 ? `${message}: ${problems.slice(0, 5).join('; ')}` : message);
        this.problems = problems;
        this.name = 'OscalImportError';
    }
}
/** `NIST Special Publication 800-53 Revision 5: Security…` → `nist-special-publication-800-53-revision-5`. */
export function catalogSlug(title) {
    const head = title.split(':')[0];
    const slug = head
        .normalize('NFKD')
        .replace(/[\u0300-\u036f]/g, '')
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, '-')
        .replace(/^-+|-+$/g, '');
    // Cut long titles at a word boundary so the id stays readable.
    const short = slug.length > 80 ? slug.slice(0, slug.lastIndexOf('-', 80)) : slug;
    return short || 'imported-catalog';
}
function isWithdrawn(control) {
    return (control.props ?? []).some((prop) => prop.name === 'status' && prop.value === 'withdrawn');
}
/** The official label (`AC-2(1)`): a `label` prop without a class, else any label, else the id. */
function controlLabel(control) {
    const labels = (control.props ?? []).filter((prop) => prop.name === 'label');
    return (labels.find((prop) => !prop.class) ?? labels[0])?.value ?? control.id;
}
const PLACEHOLDER = /\{\{\s*insert:\s*param,\s*([^\s}]+)\s*\}\}/g;
/**
 * The longest text one placeholder or statement may resolve to. SP 800-53's longest statement is under
 * 2,000 characters; a parameter inserting another many times over can reach any length.
 */
export const MAX_RESOLVED_TEXT = 64 * 1024;
/** All resolved texts together stay within this many times the catalog's own size (plus a floor). */
const EXPANSION_FACTOR = 2;
const EXPANSION_FLOOR = 1024 * 1024;
class ParamResolver {
    params;
    budget;
    /** Parameters being resolved, outermost first: one seen again is a cycle. */
    resolving = [];
    expanded = 0;
    constructor(params, 
    /** How many characters all resolved texts together may hold. */
    budget) {
        this.params = params;
        this.budget = budget;
    }
    /** Replaces `{{ insert: param, id }}` with values, a selection or an assignment label. */
    resolve(text, depth = 0) {
        const resolved = text.replace(PLACEHOLDER, (_, id) => this.describe(id, depth));
        if (resolved === text)
            return text;
        this.expanded += resolved.length;
        const over = resolved.length > MAX_RESOLVED_TEXT
            ? `more than ${MAX_RESOLVED_TEXT} characters`
            : this.expanded > this.budget
                ? `more than the catalog's ${this.budget}-character allowance for resolved text`
                : undefined;
        if (over) {
            const where = this.resolving.at(-1);
            throw new OscalImportError(where ? `The parameter ${where} expands to ${over}` : `A statement expands to ${over}`);
        }
        return resolved;
    }
    describe(id, depth) {
        const param = this.params.get(id);
        if (!param || depth > 5)
            return `[Assignment: ${id}]`;
        const cycleStart = this.resolving.indexOf(id);
        if (cycleStart >= 0) {
            const cycle = [...this.resolving.slice(cycleStart), id].join(' → ');
            throw new OscalImportError(`The parameter ${id} inserts itself (${cycle})`);
        }
        this.resolving.push(id);
        try {
            return this.describeParam(param, depth);
        }
        finally {
            this.resolving.pop();
        }
    }
    describeParam(param, depth) {
        if (param.values && param.values.length > 0)
            return param.values.map((value) => this.resolve(value, depth + 1)).join(', ');
        if (param.select?.choice && param.select.choice.length > 0) {
            const how = param.select['how-many'] === 'one-or-more' ? 'one or more' : 'one';
            const choices = param.select.choice.map((choice) => this.resolve(choice, depth + 1));
            return `[Selection (${how}): ${choices.join('; ')}]`;
        }
        return `[Assignment: ${param.label ? this.resolve(param.label, depth + 1) : param.id}]`;
    }
}
function labelOf(part) {
    return part.props?.find((prop) => prop.name === 'label')?.value;
}
/** A statement part as one text: prose, then each item with its label ("a. …; 1. …"). */
function partText(part, resolver) {
    const own = part.prose ? resolver.resolve(part.prose.trim()) : '';
    const children = (part.parts ?? [])
        .filter((child) => child.name === 'item')
        .map((child) => {
        const label = labelOf(child);
        const text = partText(child, resolver);
        return label ? `${label} ${text}` : text;
    });
    return [own, ...children].filter(Boolean).join(' ');
}
function controlDescription(control, resolver) {
    const parts = control.parts ?? [];
    const statement = parts.find((part) => part.name === 'statement');
    const text = statement ? partText(statement, resolver) : '';
    if (text)
        return text;
    const guidance = parts.find((part) => part.name === 'guidance');
    return guidance ? partText(guidance, resolver) || control.title : control.title;
}
function collectParams(catalog) {
    const params = new Map();
    const addAll = (list) => {
        for (const param of list ?? [])
            params.set(param.id, param);
    };
    const visitControl = (control) => {
        addAll(control.params);
        control.controls?.forEach(visitControl);
    };
    const visitGroup = (group) => {
        group.controls?.forEach(visitControl);
        group.groups?.forEach(visitGroup);
    };
    addAll(catalog.params);
    catalog.controls?.forEach(visitControl);
    catalog.groups?.forEach(visitGroup);
    return params;
}
/**
 * How deep a catalog may nest, in JSON levels. SP 800-53 nests 11 deep; the schema validator and the
 * import both recurse per level, so a document thousands of levels deep would overflow the stack.
 */
export const MAX_CATALOG_DEPTH = 256;
/** Whether `value` nests deeper than `limit` levels of objects and arrays (walked without recursion). */
function nestsDeeperThan(value, limit) {
    const pending = [[value, 1]];
    for (let next = pending.pop(); next; next = pending.pop()) {
        const [node, depth] = next;
        if (typeof node !== 'object' || node === null)
            continue;
        if (depth > limit)
            return true;
        for (const child of Object.values(node))
            pending.push([child, depth + 1]);
    }
    return false;
}
function asCatalog(document, options) {
    if (typeof document !== 'object' || document === null || Array.isArray(document)) {
        throw new OscalImportError('An OSCAL document must be a JSON object');
    }
    const root = document;
    if (!('catalog' in root)) {
        const model = Object.keys(root).join(', ') || 'nothing';
        const hint = 'profile' in root ? ' (resolve the profile into a catalog first)' : '';
        throw new OscalImportError(`Only an OSCAL catalog can be imported; the document's root is ${model}${hint}`);
    }
    if (nestsDeeperThan(document, MAX_CATALOG_DEPTH))
        throw new OscalImportError(`The catalog nests deeper than ${MAX_CATALOG_DEPTH} levels`);
    if (!options.skipSchemaValidation) {
        const problems = oscalSchemaErrors('catalog', document);
        if (problems.length > 0)
            throw new OscalImportError('The catalog does not match the OSCAL catalog schema', problems);
    }
    const catalog = root.catalog;
    if (typeof catalog?.metadata?.title !== 'string')
        throw new OscalImportError('The catalog has no metadata title');
    return catalog;
}
/** Converts an OSCAL catalog document (`{catalog: …}`) into a framework. */
export function importOscalCatalog(document, options = {}) {
    const catalog = asCatalog(document, options);
    // The catalog's size as JSON measures what the expansion of its parameters may cost.
    const budget = EXPANSION_FLOOR + EXPANSION_FACTOR * JSON.stringify(catalog).length;
    const resolver = new ParamResolver(collectParams(catalog), budget);
    const domains = [];
    const requirements = [];
    const seen = new Set();
    let skippedWithdrawn = 0;
    const addControl = (control, domain) => {
        if (isWithdrawn(control)) {
            skippedWithdrawn += 1 + countControls(control.controls);
            return;
        }
        let id = controlLabel(control);
        if (seen.has(id))
            id = control.id;
        seen.add(id);
        requirements.push({
            id,
            ...(domain ? { domain } : {}),
            title: control.title,
            description: controlDescription(control, resolver),
            legal: false,
        });
        for (const enhancement of control.controls ?? [])
            addControl(enhancement, domain);
    };
    const addGroup = (group, path) => {
        const id = group.id ?? `${path}${domains.length + 1}`;
        domains.push({ id, title: group.title });
        for (const control of group.controls ?? [])
            addControl(control, id);
        for (const child of group.groups ?? [])
            addGroup(child, `${id}.`);
    };
    for (const group of catalog.groups ?? [])
        addGroup(group, 'group-');
    for (const control of catalog.controls ?? [])
        addControl(control, undefined);
    const publisher = catalog.metadata.parties?.find((party) => party.type === 'organization');
    const framework = {
        id: options.frameworkId ?? catalogSlug(catalog.metadata.title),
        name: catalog.metadata.title,
        version: catalog.metadata.version,
        publisher: publisher?.['short-name'] ?? publisher?.name ?? 'unknown',
        kind: 'catalog',
        ...(domains.length > 0 ? { domains } : {}),
        requirements,
    };
    return { framework, skippedWithdrawn };
}
/** Withdrawn controls hide their enhancements too; those count as skipped. */
function countControls(controls) {
    return (controls ?? []).reduce((sum, control) => sum + 1 + countControls(control.controls), 0);
}
//# sourceMappingURL=oscal-import.js.map