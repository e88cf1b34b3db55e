// Rules of events.<domain>/v1 Event (upstream ValidateEventCreate and ValidateEventUpdate for an
// events/v1 request): the legacy rules every event passes, then the strict ones of the new API:
// eventTime, a Normal or Warning type, a consistent series, and none of the deprecated core fields.
// Causes name the fields as upstream does, by their core names (message, firstTimestamp, ...),
// except the reporting controller.
import { isDeepStrictEqual } from 'node:util';
import { eventToCore } from '../../../api/events/v1/conversion.js';
import type { Event as CoreEvent } from '../../../api/core/v1/event.js';
import type { Event } from '../../../api/events/v1/event.js';
import { invalid, required, Path, type FieldError } from '../../runtime/field-errors.js';
import { eventValidation } from '../core/event-validation.js';
import { validateImmutableField } from '../validation/immutable.js';
import type { KindValidation } from '../validation/kind-validation.js';
import { nameIsDNSSubdomain } from '../validation/names.js';

function validateSeries(ev: Event): FieldError[] {
  if (!ev.series) return [];
  const errs: FieldError[] = [];
  if ((ev.series.count ?? 0) < 2) errs.push(invalid(Path.root('series').child('count'), '', 'should be at least 2'));
  if (!ev.series.lastObservedTime) errs.push(required(Path.root('series').child('lastObservedTime'), ''));
  return errs;
}

/** `systemNamespace` plays upstream's kube-system. */
export function eventsV1EventValidation(systemNamespace: string): KindValidation<Event> {
  const legacy = eventValidation(systemNamespace, 'reportingController');
  const core = (ev: Event) => eventToCore(ev) as CoreEvent;
  return {
    name: nameIsDNSSubdomain,
    validate(ev) {
      const errs = [...legacy.validate(core(ev)), ...validateSeries(ev)];
      // eventTime is required by the schema; a missing one is reported there.
      if (ev.type !== 'Normal' && ev.type !== 'Warning') errs.push(invalid(Path.root('type'), '', `has invalid value: ${ev.type ?? ''}`));
      if (ev.deprecatedFirstTimestamp) errs.push(invalid(Path.root('firstTimestamp'), '', 'needs to be unset'));
      if (ev.deprecatedLastTimestamp) errs.push(invalid(Path.root('lastTimestamp'), '', 'needs to be unset'));
      if (ev.deprecatedCount) errs.push(invalid(Path.root('count'), '', 'needs to be unset'));
      if (ev.deprecatedSource?.component || ev.deprecatedSource?.host) errs.push(invalid(Path.root('source'), '', 'needs to be unset'));
      return errs;
    },
    validateUpdate(ev, old) {
      const errs = legacy.validateUpdate(core(ev), core(old));
      if (!isDeepStrictEqual(ev.series, old.series)) errs.push(...validateSeries(ev));
      const fixed: [string, unknown, unknown][] = [
        ['involvedObject', ev.regarding, old.regarding],
        ['reason', ev.reason, old.reason],
        ['message', ev.note, old.note],
        ['source', ev.deprecatedSource, old.deprecatedSource],
        ['firstTimestamp', ev.deprecatedFirstTimestamp, old.deprecatedFirstTimestamp],
        ['lastTimestamp', ev.deprecatedLastTimestamp, old.deprecatedLastTimestamp],
        ['count', ev.deprecatedCount, old.deprecatedCount],
        ['type', ev.type, old.type],
        ['eventTime', ev.eventTime, old.eventTime],
        ['action', ev.action, old.action],
        ['related', ev.related, old.related],
        ['reportingController', ev.reportingController, old.reportingController],
        ['reportingInstance', ev.reportingInstance, old.reportingInstance],
      ];
      for (const [name, now, before] of fixed) errs.push(...validateImmutableField(now, before, Path.root(name)));
      return errs;
    },
  };
}
