// The -o wide columns upstream's printers give every kind that makes pods from a template:
// the containers, their images and the selector of the pods.
import { formatLabelSelector, type PrinterColumn } from './printer-column.js';
import type { LabelSelector } from './meta/v1/types.js';

interface TemplateLike {
  spec?: { containers?: { name: string; image?: string }[] };
}

/** A selector as upstream's labels.Selector prints it: '' for none or a malformed one. */
export function selectorString(sel: LabelSelector | undefined): string {
  const text = formatLabelSelector(sel);
  return text === '<none>' || text === '<error>' ? '' : text;
}

/**
 * Containers and Images of the template `templateOf` finds, then, when `selector` is given, a
 * Selector column with its cell (and description).
 */
export function podTemplateColumns<T>(
  templateOf: (obj: T) => TemplateLike | undefined,
  selector?: { cell: (obj: T) => string; description: string },
): PrinterColumn<T>[] {
  const containers = (o: T) => templateOf(o)?.spec?.containers ?? [];
  const cols: PrinterColumn<T>[] = [
    { name: 'Containers', type: 'string', description: 'Names of the containers in the pod template.', priority: 1,
      cell: (o) => containers(o).map((c) => c.name).join(',') },
    { name: 'Images', type: 'string', description: 'Images of the containers in the pod template.', priority: 1,
      cell: (o) => containers(o).map((c) => c.image ?? '').join(',') },
  ];
  if (selector) cols.push({ name: 'Selector', type: 'string', description: selector.description, priority: 1, cell: selector.cell });
  return cols;
}
