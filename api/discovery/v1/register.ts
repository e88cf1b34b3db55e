// discovery.<domain>/v1: the endpoint slices of services.
import { ageColumn, nameColumn } from '../../printer-column.js';
import type { ApiDomain } from '../../domain.js';
import { defineKind, type GroupVersionRegistration } from '../../registration.js';
import { EndpointSlice, type Endpoint, type EndpointPort } from './endpoint-slice.js';

/** Upstream's listWithMoreString: the first three, `+ N more...` after them, `<unset>` for none. */
function listWithMore(items: string[]): string {
  const max = 3;
  if (items.length > max) return `${items.slice(0, max).join(',')} + ${items.length - max} more...`;
  return items.length === 0 ? '<unset>' : items.join(',');
}

/** Each port's number, else its name, else `*` (any port). */
const formatPorts = (ports: EndpointPort[] | undefined) =>
  listWithMore((ports ?? []).map((p) => (p.port !== undefined ? String(p.port) : p.name ?? '*')));

const formatEndpoints = (endpoints: Endpoint[] | undefined) => listWithMore((endpoints ?? []).flatMap((e) => e.addresses ?? []));

export const discoveryV1 = (d: ApiDomain): GroupVersionRegistration => ({
  group: d.group('discovery'),
  version: 'v1',
  stability: 'stable',
  kinds: [
    defineKind({
      kind: 'EndpointSlice', resource: 'endpointslices', singular: 'endpointslice', namespaced: true,
      schema: EndpointSlice,
      printerColumns: [
        nameColumn,
        { name: 'AddressType', type: 'string', description: 'Type of the addresses of the slice: IPv4, IPv6 or FQDN.', priority: 0, cell: (s) => s.addressType ?? '' },
        { name: 'Ports', type: 'string', description: 'Ports every endpoint of the slice offers.', priority: 0, cell: (s) => formatPorts(s.ports) },
        { name: 'Endpoints', type: 'string', description: 'Addresses of the endpoints of the slice.', priority: 0, cell: (s) => formatEndpoints(s.endpoints) },
        ageColumn,
      ],
    }),
  ],
});
