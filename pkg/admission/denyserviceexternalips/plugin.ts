// DenyServiceExternalIPs (upstream plugin/pkg/admission/network/denyserviceexternalips, 1.30):
// no Service may take on an external IP it did not have (externalIPs let a Service capture traffic
// for any address, CVE-2020-8554). Creates with any, and updates that add one, are refused;
// removing them, or keeping those already there, is allowed.
import { newAdmissionForbidden } from '../errors.js';
import { handlesOperations, type AdmissionObject, type Attributes, type ValidationInterface } from '../interfaces.js';
import type { PluginFactory } from '../registry.js';

export const PluginName = 'DenyServiceExternalIPs';

const externalIPs = (svc: AdmissionObject | undefined): string[] => {
  const spec = svc?.['spec'];
  if (typeof spec !== 'object' || spec === null) return [];
  const ips = (spec as Record<string, unknown>)['externalIPs'];
  return Array.isArray(ips) ? ips.map(String) : [];
};

export class DenyServiceExternalIPs implements ValidationInterface {
  readonly name = PluginName;
  readonly handles = handlesOperations('CREATE', 'UPDATE');

  validate(attrs: Attributes): void {
    if (attrs.resource.group !== '' || attrs.resource.resource !== 'services' || attrs.subresource !== '') return;
    const wanted = externalIPs(attrs.object);
    if (wanted.length === 0) return;
    const had = new Set(attrs.oldObject ? externalIPs(attrs.oldObject) : []);
    if (wanted.every((ip) => had.has(ip))) return;
    throw newAdmissionForbidden(attrs, 'Use of external IPs is denied by admission control');
  }
}

/** Makes the plug-in; it takes no configuration. */
export const denyServiceExternalIPsFactory: PluginFactory = () => new DenyServiceExternalIPs();
