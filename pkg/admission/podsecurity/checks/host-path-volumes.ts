// Baseline, from v1.0: no hostPath volume (restricted replaces this with its list of volume types).
import { allowed, forbidden, joinQuote, pluralize, type Check } from '../check.js';

export const hostPathVolumesID = 'hostPathVolumes';

export const checkHostPathVolumes: Check = {
  id: hostPathVolumesID,
  level: 'baseline',
  versions: [{
    minimumVersion: 0,
    checkPod: (_meta, spec) => {
      const bad = (spec.volumes ?? []).filter((v) => v.hostPath).map((v) => v.name);
      return bad.length > 0 ? forbidden('hostPath volumes', `${pluralize('volume', 'volumes', bad.length)} ${joinQuote(bad)}`) : allowed;
    },
  }],
};
