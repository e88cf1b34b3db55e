// events.<domain>/v1: the newer Event API, stored as (and converted from) core v1 events.
import type { ApiDomain } from '../../domain.js';
import { eventColumns } from '../../core/v1/register.js';
import { Event as CoreEvent } from '../../core/v1/event.js';
import type { PrinterColumn } from '../../printer-column.js';
import { defineKind, type GroupVersionRegistration } from '../../registration.js';
import { eventFromCore, eventToCore } from './conversion.js';
import { Event } from './event.js';

export const eventsV1 = (d: ApiDomain): GroupVersionRegistration => {
  const apiVersion = `${d.group('events')}/v1`;
  // Upstream prints both shapes with the same printer; the cells read the core shape.
  const columns = eventColumns.map((c): PrinterColumn<Event> => ({ ...c, cell: (ev, now) => c.cell(eventToCore(ev) as CoreEvent, now) }));
  return {
    group: d.group('events'),
    version: 'v1',
    stability: 'stable',
    kinds: [
      defineKind({
        kind: 'Event', resource: 'events', singular: 'event', namespaced: true,
        shortNames: ['ev'], schema: Event, printerColumns: columns,
        storedAs: { group: '', resource: 'events', schema: CoreEvent, toStorage: eventToCore, fromStorage: (ev) => eventFromCore(ev, apiVersion) },
      }),
    ],
  };
};
