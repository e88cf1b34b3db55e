import { type Static } from '@sinclair/typebox';
import { int64, opt, raw } from '../../schema.js';
import { topLevel } from '../../meta/v1/types.js';

const P = 'io.orch.api.apps.v1';

export const ControllerRevision = topLevel(`${P}.ControllerRevision`, {
  data: opt(raw(2, { description: 'The recorded state, kept as any JSON object the controller chose to store. Required; cannot be changed.' })),
  revision: int64(3, { description: 'Number of this revision among those of its controller; higher is newer.' }),
}, {
  required: ['revision'],
  description: 'An immutable snapshot of the state a controller (a StatefulSet, a DaemonSet) kept, used to roll back and to track which pods run which version.',
});
export type ControllerRevision = Static<typeof ControllerRevision>;
