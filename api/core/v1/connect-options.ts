// The options of the CONNECT sub-resources (pods/exec, attach, portforward, proxy; nodes/proxy;
// services/proxy). They arrive as query parameters, never as a body; admission sees them as these
// kinds. Field numbers follow upstream core/v1 generated.proto.
import { Type, type Static } from '@sinclair/typebox';
import { bool, list, object, opt, str, stringList } from '../../schema.js';

const P = 'io.orch.api.core.v1';

/** apiVersion and kind: the option kinds carry no metadata. */
export const typeMeta = {
  apiVersion: opt(Type.String({ description: 'Versioned schema of this representation of the object (v1).' })),
  kind: opt(Type.String({ description: 'The kind of the object, in CamelCase.' })),
};

const streams = {
  stdin: opt(bool(1, { description: 'Whether to send the client\'s standard input to the container.' })),
  stdout: opt(bool(2, { description: 'Whether to return the container\'s standard output.' })),
  stderr: opt(bool(3, { description: 'Whether to return the container\'s standard error.' })),
  tty: opt(bool(4, { description: 'Whether the streams are a terminal; standard error then joins standard output.' })),
  container: opt(str(5, { description: 'The container to connect to; may be omitted when the pod has one container.' })),
};

export const PodExecOptions = object(`${P}.PodExecOptions`, {
  ...typeMeta,
  ...streams,
  command: stringList(6, { listType: 'atomic' }, { description: 'The command to run and its arguments, not run in a shell.' }),
}, { required: ['command'], description: 'The query options of pods/exec: a command run in a container, with the streams to connect.' });
export type PodExecOptions = Static<typeof PodExecOptions>;

export const PodAttachOptions = object(`${P}.PodAttachOptions`, {
  ...typeMeta,
  ...streams,
}, { description: 'The query options of pods/attach: the streams of a running container to connect to.' });
export type PodAttachOptions = Static<typeof PodAttachOptions>;

export const PodPortForwardOptions = object(`${P}.PodPortForwardOptions`, {
  ...typeMeta,
  ports: opt(list(1, Type.Integer({ format: 'int32' }), { listType: 'atomic' }, { description: 'The pod ports to forward (the streaming protocol may also name them).' })),
}, { description: 'The query options of pods/portforward.' });
export type PodPortForwardOptions = Static<typeof PodPortForwardOptions>;

const proxyPath = { path: opt(str(1, { description: 'The path below the target the request is proxied to.' })) };

export const PodProxyOptions = object(`${P}.PodProxyOptions`, { ...typeMeta, ...proxyPath },
  { description: 'The options of pods/proxy: the path on the pod to proxy to.' });
export const NodeProxyOptions = object(`${P}.NodeProxyOptions`, { ...typeMeta, ...proxyPath },
  { description: 'The options of nodes/proxy: the path on the node agent to proxy to.' });
export const ServiceProxyOptions = object(`${P}.ServiceProxyOptions`, { ...typeMeta, ...proxyPath },
  { description: 'The options of services/proxy: the path on the service\'s endpoint to proxy to.' });
