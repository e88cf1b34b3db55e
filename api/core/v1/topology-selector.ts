// Topology domains a storage class may provision in, selected by node labels.
import { Type, type Static } from '@sinclair/typebox';
import { list, object, opt, str } from '../../schema.js';

const P = 'io.orch.api.core.v1';

export const TopologySelectorLabelRequirement = object(`${P}.TopologySelectorLabelRequirement`, {
  key: str(1, { description: 'Label key the requirement is about.' }),
  values: list(2, Type.String(), { listType: 'atomic' }, {
    description: 'Label values of which one must match; at least one, without repeats.',
  }),
}, { required: ['key', 'values'], description: 'A topology label key with the values it may take.' });
export type TopologySelectorLabelRequirement = Static<typeof TopologySelectorLabelRequirement>;

export const TopologySelectorTerm = object(`${P}.TopologySelectorTerm`, {
  matchLabelExpressions: opt(list(1, TopologySelectorLabelRequirement, { listType: 'atomic' }, {
    description: 'Label requirements that must all hold, each on a different key.',
  })),
}, { 'x-orch-map-type': 'atomic', description: 'A topology domain: the requirements a place must meet, all of them.' });
export type TopologySelectorTerm = Static<typeof TopologySelectorTerm>;
