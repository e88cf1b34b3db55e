// The columns upstream prints an autoscaler with (NAME REFERENCE TARGETS MINPODS MAXPODS REPLICAS
// AGE), read off the v2 shape; autoscaling/v1 prints the same cells after conversion.
import { ageColumn, nameColumn, type PrinterColumn } from '../../printer-column.js';
import type { HorizontalPodAutoscaler, MetricSpec, MetricStatus } from './horizontal-pod-autoscaler.js';

const unknown = '<unknown>';
const q = (v: number | string | undefined) => (v === undefined ? '0' : String(v));

/** One metric as upstream's formatHPAMetrics prints it: current/target, named for resource metrics. */
function formatMetric(spec: MetricSpec, status: MetricStatus | undefined): string {
  switch (spec.type) {
    case 'External': {
      const t = spec.external?.target;
      if (t?.averageValue !== undefined) {
        const current = status?.external?.current.averageValue;
        return `${current === undefined ? unknown : q(current)}/${q(t.averageValue)} (avg)`;
      }
      return `${status?.external ? q(status.external.current.value) : unknown}/${q(t?.value)}`;
    }
    case 'Pods':
      return `${status?.pods ? q(status.pods.current.averageValue) : unknown}/${q(spec.pods?.target.averageValue)}`;
    case 'Object': {
      const t = spec.object?.target;
      if (t?.averageValue !== undefined) {
        const current = status?.object?.current.averageValue;
        return `${current === undefined ? unknown : q(current)}/${q(t.averageValue)} (avg)`;
      }
      return `${status?.object ? q(status.object.current.value) : unknown}/${q(t?.value)}`;
    }
    case 'Resource':
    case 'ContainerResource': {
      const source = spec.type === 'Resource' ? spec.resource : spec.containerResource;
      const current = spec.type === 'Resource' ? status?.resource : status?.containerResource;
      const name = source?.name ?? '';
      if (source?.target.averageValue !== undefined) {
        return `${name}: ${current ? q(current.current.averageValue) : unknown}/${q(source.target.averageValue)}`;
      }
      const utilization = current?.current.averageUtilization;
      const target = source?.target.averageUtilization;
      return `${name}: ${utilization === undefined ? unknown : `${utilization}%`}/${target === undefined ? '<auto>' : `${target}%`}`;
    }
    default:
      return '<unknown type>';
  }
}

/** The TARGETS cell: the first two metrics, then how many more. */
function formatHPAMetrics(specs: MetricSpec[] | undefined, statuses: MetricStatus[] | undefined): string {
  if (!specs || specs.length === 0) return '<none>';
  const shown = specs.slice(0, 2).map((s, i) => formatMetric(s, statuses?.[i])).join(', ');
  return specs.length > 2 ? `${shown} + ${specs.length - 2} more...` : shown;
}

export const horizontalPodAutoscalerColumns: PrinterColumn<HorizontalPodAutoscaler>[] = [
  nameColumn,
  { name: 'Reference', type: 'string', description: 'The object scaled, as Kind/name.', priority: 0,
    cell: (h) => `${h.spec?.scaleTargetRef.kind ?? ''}/${h.spec?.scaleTargetRef.name ?? ''}` },
  { name: 'Targets', type: 'string', description: 'Current and target values of the metrics scaled on.', priority: 0,
    cell: (h) => formatHPAMetrics(h.spec?.metrics, h.status?.currentMetrics) },
  { name: 'MinPods', type: 'string', description: 'Fewest replicas the autoscaler scales down to.', priority: 0,
    cell: (h) => (h.spec?.minReplicas === undefined ? '<unset>' : String(h.spec.minReplicas)) },
  // Upstream declares these as strings and fills them with integers.
  { name: 'MaxPods', type: 'string', description: 'Most replicas the autoscaler scales up to.', priority: 0,
    cell: (h) => h.spec?.maxReplicas ?? 0 },
  { name: 'Replicas', type: 'string', description: 'Replicas of the scaled object when last observed.', priority: 0,
    cell: (h) => h.status?.currentReplicas ?? 0 },
  ageColumn,
];
