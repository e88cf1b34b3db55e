// Conversion between core v1 Event (the stored shape) and events/v1 Event, as upstream's
// events/v1 conversion: regarding is involvedObject, note is message, reportingController is
// reportingComponent, and the deprecated* fields are core's source, firstTimestamp,
// lastTimestamp and count. Pure functions over plain objects; metadata is passed on as it is.

type Obj = Record<string, unknown>;

/** The object without its undefined properties. */
const defined = (o: Obj): Obj => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));

/** An events/v1 Event as a core v1 Event. */
export function eventToCore(ev: Obj): Obj {
  return defined({
    apiVersion: 'v1',
    kind: 'Event',
    metadata: ev.metadata,
    involvedObject: ev.regarding ?? {},
    reason: ev.reason,
    message: ev.note,
    source: ev.deprecatedSource,
    firstTimestamp: ev.deprecatedFirstTimestamp,
    lastTimestamp: ev.deprecatedLastTimestamp,
    count: ev.deprecatedCount,
    type: ev.type,
    eventTime: ev.eventTime,
    series: ev.series,
    action: ev.action,
    related: ev.related,
    reportingComponent: ev.reportingController,
    reportingInstance: ev.reportingInstance,
  });
}

/** A core v1 Event as an events/v1 Event; `apiVersion` is that of the events group. */
export function eventFromCore(ev: Obj, apiVersion: string): Obj {
  return defined({
    apiVersion,
    kind: 'Event',
    metadata: ev.metadata,
    eventTime: ev.eventTime,
    series: ev.series,
    reportingController: ev.reportingComponent,
    reportingInstance: ev.reportingInstance,
    action: ev.action,
    reason: ev.reason,
    regarding: ev.involvedObject,
    related: ev.related,
    note: ev.message,
    type: ev.type,
    deprecatedSource: ev.source,
    deprecatedFirstTimestamp: ev.firstTimestamp,
    deprecatedLastTimestamp: ev.lastTimestamp,
    deprecatedCount: ev.count,
  });
}
