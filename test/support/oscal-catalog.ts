/** A control of a test catalog: its statement is its only part. */
export interface CatalogControl {
  id: string;
  title: string;
  prose: string;
}

const control = ({ id, title, prose }: CatalogControl) => ({
  id,
  title,
  parts: [{ id: `${id}_smt`, name: 'statement', prose }],
});

/**
 * A small OSCAL 1.2.1 catalog as the import takes it: controls in groups, or (`controls`) at the top level.
 */
export function oscalCatalog(
  uuid: string,
  title: string,
  content:
    | { groups: { id: string; title: string; controls: CatalogControl[] }[] }
    | { controls: CatalogControl[] },
) {
  const metadata = { title, 'last-modified': '2026-01-01T00:00:00Z', version: '1', 'oscal-version': '1.2.1' };
  return {
    catalog: {
      uuid,
      metadata,
      ...('groups' in content
        ? { groups: content.groups.map((group) => ({ ...group, controls: group.controls.map(control) })) }
        : { controls: content.controls.map(control) }),
    },
  };
}
