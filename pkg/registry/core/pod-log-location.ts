// pods/log: where a container's log is read, as upstream's LogREST and LogLocation find it: the
// options checked, the pod and its container found, then the node agent's /containerLogs path
// over HTTPS with the server's kubelet client certificate. A pod not yet on a node has no log to
// read yet, which upstream answers with an empty stream.
import type { Pod } from '../../../api/core/v1/pod.js';
import type { PodLogOptions } from '../../../api/core/v1/pod-log-options.js';
import { newInvalid, newNotFound } from '../../runtime/errors.js';
import type { StreamGetter } from '../rest/stream.js';
import { hostForURL, kubeletLocation, type ConnectStores, type KubeletConnection } from './connect-locations.js';
import { podContainer } from './pod-container.js';
import { validatePodLogOptions } from './pod-log-options-validation.js';

/** The node agent's query for a log: only what is set, keys sorted as Go's url.Values encodes them. */
function logQuery(opts: PodLogOptions): URLSearchParams {
  const q = new URLSearchParams();
  if (opts.follow) q.append('follow', 'true');
  if (opts.limitBytes !== undefined) q.append('limitBytes', String(opts.limitBytes));
  if (opts.previous) q.append('previous', 'true');
  if (opts.sinceSeconds !== undefined) q.append('sinceSeconds', String(opts.sinceSeconds));
  if (opts.sinceTime !== undefined) q.append('sinceTime', opts.sinceTime);
  if (opts.tailLines !== undefined) q.append('tailLines', String(opts.tailLines));
  if (opts.timestamps) q.append('timestamps', 'true');
  return q;
}

/** pods/log: the container's log on its pod's node agent, or nothing yet when the pod has no node. */
export function podLogGetter(stores: () => ConnectStores, kubelet: KubeletConnection): StreamGetter {
  return async ({ namespace, name, options }) => {
    const opts = options as PodLogOptions;
    const errs = validatePodLogOptions(opts);
    if (errs.length > 0) throw newInvalid('PodLogOptions', '', name, errs);
    const { pods, nodes } = stores();
    if (!pods) throw newNotFound({ group: '', resource: 'pods' }, name);
    const pod = (await pods.get(namespace, name)) as unknown as Pod;
    const container = podContainer(pod, opts.container);
    const nodeName = pod.spec?.nodeName ?? '';
    if (!nodeName) return undefined;
    const { host, port } = await kubeletLocation(nodes, nodeName, kubelet);
    const path = ['containerLogs', namespace, name, container].map(encodeURIComponent).join('/');
    const url = new URL(`https://${hostForURL(host)}:${port}/${path}`);
    url.search = logQuery(opts).toString();
    // Without verification the server still presents its client certificate; only the agent's goes unchecked.
    const tls = opts.insecureSkipTLSVerifyBackend ? { ...kubelet.tls, ca: undefined } : kubelet.tls;
    return { url, tls, dialTimeoutMs: kubelet.timeoutMs, rejectRedirects: true, contentType: 'text/plain' };
  };
}
