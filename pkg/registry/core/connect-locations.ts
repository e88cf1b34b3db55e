// Where the CONNECT sub-resources of pods, nodes and services lead, as upstream's pod, node and
// service registries resolve them: exec, attach and port-forward go to the node agent (kubelet) of
// the pod's node over HTTPS with the server's kubelet client certificate; pods/proxy to the pod's
// IP; nodes/proxy to the node agent (or another port of the node); services/proxy to one of the
// service's ready endpoints that is a pod.
import type { Endpoints } from '../../../api/core/v1/endpoints.js';
import type { Node as NodeShape } from '../../../api/core/v1/node.js';
import type { Pod as PodShape } from '../../../api/core/v1/pod.js';
import type { Service } from '../../../api/core/v1/service.js';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { newBadRequest, StatusError } from '../../runtime/errors.js';
import type { BackendTLS } from '../../util/proxy/upgrade-aware.js';
import type { Store } from '../generic/store.js';
import type { Connecter, ConnectTarget } from '../rest/connect.js';
import { podContainer } from './pod-container.js';

/** How the server reaches node agents (--kubelet-* flags). */
export interface KubeletConnection {
  /** The port used when a node does not report its agent's port (--kubelet-port, 10250). */
  port: number;
  /** Node address types in order of preference (--kubelet-preferred-address-types). */
  preferredAddressTypes: string[];
  /** The CA to verify agents with and the client certificate to present. */
  tls: BackendTLS;
  /** How long dialling an agent may take (--kubelet-timeout). */
  timeoutMs: number;
}

export const defaultPreferredAddressTypes = ['Hostname', 'InternalDNS', 'InternalIP', 'ExternalDNS', 'ExternalIP'];

type Pod = PodShape & { metadata: NonNullable<PodShape['metadata']> };

/** The stores the locations read; a resource not served leaves its store undefined. */
export interface ConnectStores {
  pods?: Store;
  nodes?: Store;
  services?: Store;
  endpoints?: Store;
}

const serviceUnavailable = (message: string) => new StatusError(503, 'ServiceUnavailable', message);

/** `name`, `name:port` or `scheme:name:port` (scheme http or https), as upstream's SplitSchemeNamePort. */
export function splitSchemeNamePort(id: string): { scheme: string; name: string; port: string } | undefined {
  const parts = id.split(':');
  let scheme = '';
  let name = '';
  let port = '';
  if (parts.length === 1) [name] = parts as [string];
  else if (parts.length === 2) [name, port] = parts as [string, string];
  else if (parts.length === 3) [scheme, name, port] = parts as [string, string, string];
  else return undefined;
  if (name === '' || (scheme !== '' && scheme !== 'http' && scheme !== 'https')) return undefined;
  return { scheme, name, port };
}

/** The address ranges Go's IP.IsGlobalUnicast refuses, which upstream never proxies to. */
const notGlobalUnicast = new Set(['unspecified', 'broadcast', 'multicast', 'linkLocal', 'loopback']);

/** Whether upstream proxies to this IP: global unicast only (no loopback, link-local, multicast or unspecified). */
export function isProxyableIP(ip: string): boolean {
  if (!ipaddr.isValid(ip)) return false;
  let addr = ipaddr.parse(ip);
  if (addr.kind() === 'ipv6' && (addr as ipaddr.IPv6).isIPv4MappedAddress()) addr = (addr as ipaddr.IPv6).toIPv4Address();
  return !notGlobalUnicast.has(addr.range());
}

/** A host as a URL names it: an IPv6 address in brackets. */
export const hostForURL = (host: string) => (isIP(host) === 6 ? `[${host}]` : host);

/** The node agent's address and port, as upstream's NodeConnectionInfoGetter finds them. */
export async function kubeletLocation(nodes: Store | undefined, nodeName: string, kubelet: KubeletConnection): Promise<{ host: string; port: number }> {
  if (!nodes) throw new StatusError(404, 'NotFound', `nodes "${nodeName}" not found`, { name: nodeName, kind: 'nodes' });
  const node = (await nodes.get('', nodeName)) as unknown as NodeShape;
  const addresses = node.status?.addresses ?? [];
  let host: string | undefined;
  for (const type of kubelet.preferredAddressTypes) {
    host = addresses.find((a) => a.type === type && a.address)?.address;
    if (host) break;
  }
  if (!host) {
    const known = addresses.map((a) => `{${a.type} ${a.address}}`).join(' ');
    throw new StatusError(500, 'InternalError', `Internal error occurred: no preferred addresses found; known addresses: [${known}]`);
  }
  const reported = node.status?.daemonEndpoints?.kubeletEndpoint?.Port ?? 0;
  return { host, port: reported > 0 ? reported : kubelet.port };
}

const flag = (v: unknown) => v === true;

/** The query the node agent gets for a stream: the streams as `1`, the command repeated, the ports repeated. */
function streamQuery(options: Record<string, unknown>): URLSearchParams {
  const q = new URLSearchParams();
  for (const s of ['stdin', 'stdout', 'stderr', 'tty']) if (flag(options[s])) q.append(s, '1');
  for (const c of (options.command as string[] | undefined) ?? []) q.append('command', c);
  for (const p of (options.ports as number[] | undefined) ?? []) q.append('port', String(p));
  return q;
}

type Stream = 'exec' | 'attach' | 'portforward';

/** pods/exec, pods/attach and pods/portforward: the pod's node agent, as upstream's streamLocation. */
export function podStreamConnecter(stream: Stream, stores: () => ConnectStores, kubelet: KubeletConnection): Connecter {
  return async ({ namespace, name, options }): Promise<ConnectTarget> => {
    const { pods, nodes } = stores();
    if (!pods) throw new StatusError(404, 'NotFound', `pods "${name}" not found`);
    const pod = (await pods.get(namespace, name)) as unknown as Pod;
    const container = stream === 'portforward' ? '' : podContainer(pod, options.container as string | undefined);
    const nodeName = pod.spec?.nodeName ?? '';
    if (!nodeName) throw newBadRequest(`pod ${name} does not have a host assigned`);
    const { host, port } = await kubeletLocation(nodes, nodeName, kubelet);
    const path = stream === 'portforward'
      ? `/portForward/${encodeURIComponent(namespace)}/${encodeURIComponent(name)}`
      : `/${stream}/${encodeURIComponent(namespace)}/${encodeURIComponent(name)}/${encodeURIComponent(container)}`;
    const url = new URL(`https://${hostForURL(host)}:${port}${path}`);
    url.search = streamQuery(options).toString();
    return { url, tls: kubelet.tls, dialTimeoutMs: kubelet.timeoutMs, upgradeRequired: true };
  };
}

/** The proxied path, below the location's own. */
function withPath(url: URL, options: Record<string, unknown>): URL {
  const p = typeof options.path === 'string' ? options.path : '';
  url.pathname = p.startsWith('/') ? p : `/${p}`;
  return url;
}

/** pods/proxy: `[scheme:]name[:port]` on the pod's IP (the first declared container port when none is named). */
export function podProxyConnecter(stores: () => ConnectStores): Connecter {
  return async ({ namespace, name: id, options }) => {
    const parsed = splitSchemeNamePort(id);
    if (!parsed) throw newBadRequest(`invalid pod request ${JSON.stringify(id)}`);
    const { pods } = stores();
    if (!pods) throw new StatusError(404, 'NotFound', `pods "${parsed.name}" not found`);
    const pod = (await pods.get(namespace, parsed.name)) as unknown as Pod;
    let port = parsed.port;
    if (!port) {
      for (const c of pod.spec?.containers ?? []) {
        const first = c.ports?.[0];
        if (first) {
          port = String(first.containerPort);
          break;
        }
      }
    }
    const ip = pod.status?.podIP ?? '';
    if (!isProxyableIP(ip)) throw newBadRequest('address not allowed');
    const url = new URL(`${parsed.scheme || 'http'}://${hostForURL(ip)}${port ? `:${port}` : ''}`);
    return { url: withPath(url, options), rejectRedirects: true, upgradeRequired: false };
  };
}

/** nodes/proxy: the node agent (the kubelet's port, or none named) or another port of the node. */
export function nodeProxyConnecter(stores: () => ConnectStores, kubelet: KubeletConnection): Connecter {
  return async ({ name: id, options }) => {
    const parsed = splitSchemeNamePort(id);
    if (!parsed) throw newBadRequest(`invalid node request ${JSON.stringify(id)}`);
    const { host, port } = await kubeletLocation(stores().nodes, parsed.name, kubelet);
    if (isIP(host) && !isProxyableIP(host)) throw newBadRequest('address not allowed');
    if (parsed.port === '' || parsed.port === String(port)) {
      const url = new URL(`https://${hostForURL(host)}:${port}`);
      return { url: withPath(url, options), tls: kubelet.tls, dialTimeoutMs: kubelet.timeoutMs, upgradeRequired: false };
    }
    const url = new URL(`${parsed.scheme || 'http'}://${hostForURL(host)}:${parsed.port}`);
    return { url: withPath(url, options), upgradeRequired: false };
  };
}

/** services/proxy: a random ready endpoint of the service that is one of its namespace's pods, as upstream picks one. */
export function serviceProxyConnecter(stores: () => ConnectStores): Connecter {
  return async ({ namespace, name: id, options }) => {
    const parsed = splitSchemeNamePort(id);
    if (!parsed) throw newBadRequest(`invalid service request ${JSON.stringify(id)}`);
    const { services, endpoints, pods } = stores();
    let portName = parsed.port;
    if (/^\d+$/.test(portName)) {
      if (!services) throw new StatusError(404, 'NotFound', `services "${parsed.name}" not found`);
      const svc = (await services.get(namespace, parsed.name)) as unknown as Service;
      const found = (svc.spec?.ports ?? []).find((p) => p.port === Number(portName));
      if (!found) throw serviceUnavailable(`no service port ${portName} found for service "${parsed.name}"`);
      portName = found.name ?? '';
    }
    if (!endpoints) throw new StatusError(404, 'NotFound', `endpoints "${parsed.name}" not found`);
    const eps = (await endpoints.get(namespace, parsed.name)) as unknown as Endpoints;
    const subsets = eps.subsets ?? [];
    if (subsets.length === 0) throw serviceUnavailable(`no endpoints available for service "${parsed.name}"`);
    const start = Math.floor(Math.random() * subsets.length);
    for (let i = 0; i < subsets.length; i++) {
      const ss = subsets[(start + i) % subsets.length]!;
      const addrs = ss.addresses ?? [];
      const port = (ss.ports ?? []).find((p) => (p.name ?? '') === portName);
      if (addrs.length === 0 || !port) continue;
      const first = Math.floor(Math.random() * addrs.length);
      for (let j = 0; j < addrs.length; j++) {
        const addr = addrs[(first + j) % addrs.length]!;
        // Only addresses that are pods of this namespace with that IP are proxied to.
        const ref = addr.targetRef;
        if (!ref || ref.kind !== 'Pod' || (ref.namespace ?? '') !== namespace || !ref.name || !pods) continue;
        const pod = (await pods.get(namespace, ref.name).catch(() => undefined)) as Pod | undefined;
        if (!pod || !(pod.status?.podIPs ?? []).some((p) => p.ip === addr.ip)) continue;
        const url = new URL(`${parsed.scheme || 'http'}://${hostForURL(addr.ip)}:${port.port}`);
        return { url: withPath(url, options), rejectRedirects: true, upgradeRequired: false };
      }
    }
    throw serviceUnavailable(`no endpoints available for service "${id}"`);
  };
}
