// Path and query parameters of the resource operations, grouped in the parameter sets of the
// resource reference (section 4.1): read, list, write, patch, delete, deletecollection.

export interface Parameter {
  name: string;
  in: 'path' | 'query';
  type: 'string' | 'integer' | 'boolean';
  description: string;
  required?: true;
}

const query = (name: string, type: Parameter['type'], description: string): Parameter => ({ name, in: 'query', type, description });

export const namespaceParameter: Parameter = {
  name: 'namespace', in: 'path', type: 'string', required: true,
  description: 'The namespace of the objects; names are unique within a namespace.',
};

export function nameParameter(kind: string): Parameter {
  return { name: 'name', in: 'path', type: 'string', required: true, description: `The name of the ${kind}.` };
}

const pretty = query('pretty', 'string', 'Any value but "false" or "0" indents the response for people to read.');

const dryRun = query('dryRun', 'string',
  'All runs every stage of the request (defaulting, admission, validation) except the write to storage; no other value is accepted.');

const fieldManager = query('fieldManager', 'string',
  'The name of the actor making the change, recorded in managed fields: at most 128 printable characters.');

const applyFieldManager = query('fieldManager', 'string',
  'The name of the actor making the change, recorded in managed fields: at most 128 printable characters. ' +
  'Apply patches (application/apply-patch+yaml) must set it; other patch types may.');

const fieldValidation = query('fieldValidation', 'string',
  'What to do with unknown or duplicate fields in the body: Ignore drops them silently; Warn (the default) drops them and ' +
  'adds a Warning header for each; Strict rejects the request with 400 BadRequest naming all of them.');

const force = query('force', 'boolean',
  'Take over the fields of an apply patch that other managers own instead of failing with a conflict; must be unset for other patch types.');

const allowWatchBookmarks = query('allowWatchBookmarks', 'boolean',
  'Ask a watch for BOOKMARK events, which carry only a newer resourceVersion; the server decides when to send them. Ignored unless watching.');

const continueToken = query('continue', 'string',
  'The metadata.continue token of the previous page, to read the next page at the same resourceVersion as the first. ' +
  'A token whose resourceVersion has been compacted is answered with 410 Expired. Not for watches.');

const fieldSelector = query('fieldSelector', 'string',
  'Only objects whose fields match this selector (metadata.name, metadata.namespace and the fields the kind offers). Everything by default.');

const labelSelector = query('labelSelector', 'string', 'Only objects whose labels match this selector. Everything by default.');

const limit = query('limit', 'integer',
  'The most objects to return in one page; when more remain, metadata.continue of the list is set to read on. Not for watches.');

const resourceVersion = query('resourceVersion', 'string',
  'The resourceVersion the read must be served at or after; how it applies is set by resourceVersionMatch. Unset by default, which reads the latest state.');

const resourceVersionMatch = query('resourceVersionMatch', 'string',
  'How resourceVersion applies to a list: NotOlderThan or Exact. Unset by default.');

const timeoutSeconds = query('timeoutSeconds', 'integer', 'End the list or watch after this many seconds, whatever its activity.');

const watch = query('watch', 'boolean',
  'Instead of listing, stream the ADDED, MODIFIED and DELETED events of the objects, starting after resourceVersion.');

const gracePeriodSeconds = query('gracePeriodSeconds', 'integer',
  'Seconds to wait before the object is deleted; 0 deletes at once. Unset uses the default of the kind.');

const propagationPolicy = query('propagationPolicy', 'string',
  'How dependents are garbage collected: Orphan, Background or Foreground. Unset leaves it to the finalizers of the object and the default of the kind.');

export const parameterSets = {
  read: [pretty],
  list: [allowWatchBookmarks, continueToken, fieldSelector, labelSelector, limit, pretty, resourceVersion, resourceVersionMatch, timeoutSeconds, watch],
  write: [dryRun, fieldManager, fieldValidation, pretty],
  patch: [dryRun, applyFieldManager, fieldValidation, force, pretty],
  delete: [dryRun, gracePeriodSeconds, pretty, propagationPolicy],
  deletecollection: [continueToken, dryRun, fieldSelector, gracePeriodSeconds, labelSelector, limit, pretty, propagationPolicy,
    resourceVersion, resourceVersionMatch, timeoutSeconds],
} satisfies Record<string, Parameter[]>;

/** Parameters in upstream's order: by name, then path before query. */
export function sortParameters(params: Parameter[]): Parameter[] {
  return [...params].sort((a, b) => (a.name === b.name ? a.in.localeCompare(b.in) : a.name < b.name ? -1 : 1));
}
