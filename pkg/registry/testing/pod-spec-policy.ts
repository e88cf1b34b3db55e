// The pod spec policy of a server with the default flags (--api-domain orch.io, no
// --allow-privileged), for the validation tests of pods and workload kinds.
import type { PodSpecPolicy } from '../core/pod-template-validation.js';
import { ResourceNames } from '../core/resource-names.js';

/** The default policy, or one with `over` changed. */
export const podSpecPolicy = (over: Partial<PodSpecPolicy> = {}): PodSpecPolicy => ({ resourceNames: new ResourceNames('orch.io'), allowPrivileged: false, ...over });
