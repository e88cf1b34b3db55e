import type { Static } from '@sinclair/typebox';
import { field, int32, object, opt, str } from '../../schema.js';
import { topLevel } from '../../meta/v1/types.js';
import { microTime } from '../../meta/v1/primitives.js';

const P = 'io.orch.api.coordination.v1';

export const LeaseSpec = object(`${P}.LeaseSpec`, {
  holderIdentity: opt(str(1, { 'x-orch-emit': 'pointer', description: 'Identity of the current holder of the lease.' })),
  leaseDurationSeconds: opt(int32(2, {
    'x-orch-emit': 'pointer',
    description: 'How long, in seconds from the last renewal, other candidates must wait before they may take the lease. Greater than 0.',
  })),
  acquireTime: opt(microTime(3, { 'x-orch-emit': 'pointer', description: 'When the current holder acquired the lease.' })),
  renewTime: opt(microTime(4, { 'x-orch-emit': 'pointer', description: 'When the current holder last renewed the lease.' })),
  leaseTransitions: opt(int32(5, {
    'x-orch-emit': 'pointer',
    description: 'How many times the lease has changed holders. Not negative.',
  })),
}, { description: 'Who holds a lease and until when.' });
export type LeaseSpec = Static<typeof LeaseSpec>;

export const Lease = topLevel(`${P}.Lease`, {
  spec: opt(field(2, LeaseSpec, { 'x-orch-emit': 'always', description: 'The holder and timing of the lease.' })),
}, { description: 'A lease held by one party at a time, used for leader election and node heartbeats.' });
export type Lease = Static<typeof Lease>;
