// autoscaling/v1: HorizontalPodAutoscaler served from the autoscaling/v2 storage, converted on every
// read and write (conversion.ts). The Scale of the scale sub-resources is in scale.ts.
import type { ApiDomain } from '../../domain.js';
import type { PrinterColumn } from '../../printer-column.js';
import { defineKind, type GroupVersionRegistration } from '../../registration.js';
import { defaultHorizontalPodAutoscaler } from '../v2/defaults.js';
import { HorizontalPodAutoscaler as StoredHorizontalPodAutoscaler, type HorizontalPodAutoscaler as V2 } from '../v2/horizontal-pod-autoscaler.js';
import { horizontalPodAutoscalerColumns } from '../v2/printer.js';
import { autoscalingGroup } from '../v2/register.js';
import { hpaFromV1, hpaToV1, roundTripAnnotations } from './conversion.js';
import { HorizontalPodAutoscaler } from './horizontal-pod-autoscaler.js';

/** A v1 autoscaler as the v2 object upstream stores for it, v2's defaults applied. */
export function horizontalPodAutoscalerV1ToV2(d: ApiDomain): (hpa: HorizontalPodAutoscaler) => V2 {
  const keys = roundTripAnnotations(d);
  return (hpa) => {
    const v2 = hpaFromV1(hpa, keys);
    defaultHorizontalPodAutoscaler(v2);
    return v2;
  };
}

export const autoscalingV1 = (d: ApiDomain): GroupVersionRegistration => {
  const keys = roundTripAnnotations(d);
  const toV2 = horizontalPodAutoscalerV1ToV2(d);
  // Upstream prints every version with one printer; the cells read the v2 shape.
  const columns = horizontalPodAutoscalerColumns.map((c): PrinterColumn<HorizontalPodAutoscaler> => ({ ...c, cell: (h, now) => c.cell(toV2(h), now) }));
  return {
    group: autoscalingGroup,
    version: 'v1',
    stability: 'stable',
    kinds: [
      defineKind({
        kind: 'HorizontalPodAutoscaler', resource: 'horizontalpodautoscalers', singular: 'horizontalpodautoscaler', namespaced: true,
        shortNames: ['hpa'], categories: ['all'], subresources: ['status'], schema: HorizontalPodAutoscaler, printerColumns: columns,
        storedAs: {
          group: autoscalingGroup, resource: 'horizontalpodautoscalers', schema: StoredHorizontalPodAutoscaler,
          toStorage: (obj) => toV2(obj as HorizontalPodAutoscaler) as unknown as Record<string, unknown>,
          fromStorage: (obj) => hpaToV1(obj as V2, keys) as unknown as Record<string, unknown>,
        },
      }),
    ],
  };
};
