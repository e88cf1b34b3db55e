// Rules of core v1 Event (upstream ValidateEventCreate, ValidateEventUpdate for a v1 request:
// the legacy checks only). An event without eventTime (an old-style event) must name the
// namespace it is in; a new-style event (eventTime set) must also say who reported it, what was
// done and why, within upstream's length limits.
import type { Event } from '../../../api/core/v1/event.js';
import { invalid, required, Path, type FieldError } from '../../runtime/field-errors.js';
import type { KindValidation } from '../validation/kind-validation.js';
import { isDNS1123Subdomain, isQualifiedName, nameIsPathSegment } from '../validation/names.js';

export const ReportingInstanceLengthLimit = 128;
export const ActionLengthLimit = 128;
export const ReasonLengthLimit = 128;
export const NoteLengthLimit = 1024;

/**
 * `systemNamespace` plays upstream's kube-system; `reportingField` names the reporting controller
 * in causes (reportingComponent for core v1 requests, reportingController for events/v1 ones).
 */
export function eventValidation(systemNamespace: string, reportingField = 'reportingComponent'): KindValidation<Event> {
  const validateEvent = (ev: Event): FieldError[] => {
    const errs: FieldError[] = [];
    const namespace = ev.metadata?.namespace ?? '';
    // involvedObject is required by the schema; a missing one is already reported there.
    const involvedNamespace = ev.involvedObject?.namespace ?? '';
    const nsPath = Path.root('involvedObject').child('namespace');
    const mismatch = () => ev.involvedObject && errs.push(invalid(nsPath, involvedNamespace, 'does not match event.namespace'));
    if (!ev.eventTime) {
      if (involvedNamespace === '') {
        // Old clients put events about cluster-scoped objects in default.
        if (namespace !== '' && namespace !== 'default') mismatch();
      } else if (namespace !== involvedNamespace) mismatch();
    } else {
      if (involvedNamespace === '' && namespace !== 'default' && namespace !== systemNamespace) mismatch();
      const component = ev.reportingComponent ?? '';
      // Upstream adds the qualified-name messages of "" to the Required cause; one cause here.
      if (component === '') errs.push(required(Path.root(reportingField)));
      else for (const m of isQualifiedName(component)) errs.push(invalid(Path.root(reportingField), component, m));
      const limited = (name: string, value: string, limit: number, needed: boolean) => {
        if (needed && value.length === 0) errs.push(required(Path.root(name)));
        if (value.length > limit) errs.push(invalid(Path.root(name), '', `can have at most ${limit} characters`));
      };
      limited('reportingInstance', ev.reportingInstance ?? '', ReportingInstanceLengthLimit, true);
      limited('action', ev.action ?? '', ActionLengthLimit, true);
      limited('reason', ev.reason ?? '', ReasonLengthLimit, true);
      limited('message', ev.message ?? '', NoteLengthLimit, false);
    }
    for (const m of isDNS1123Subdomain(namespace)) errs.push(invalid(Path.root('namespace'), namespace, m));
    return errs;
  };
  return {
    // Upstream checks no name rule for events beyond what a path segment needs.
    name: nameIsPathSegment,
    validate: validateEvent,
    validateUpdate: (ev) => validateEvent(ev),
  };
}
