// Health probes and lifecycle hooks of a container and the actions they run.
import { Type, type Static } from '@sinclair/typebox';
import { enumOf, field, int32, int64, list, object, opt, str } from '../../schema.js';
import { intOrString } from '../../meta/v1/primitives.js';
import { embedded } from '../../embedded-fields.js';

const P = 'io.orch.api.core.v1';

export const ExecAction = object(`${P}.ExecAction`, {
  command: opt(list(1, Type.String(), { listType: 'atomic' }, {
    description: 'Command and arguments, run directly (not through a shell) in the container\'s working directory. ' +
      'Exit status 0 counts as success.',
  })),
}, { description: 'Runs a command inside the container.' });
export type ExecAction = Static<typeof ExecAction>;

export const HTTPHeader = object(`${P}.HTTPHeader`, {
  name: str(1, { description: 'Header name; names differing only in case are the same header.' }),
  value: str(2, { description: 'Header value.' }),
}, { required: ['name', 'value'], description: 'A header sent with an HTTP GET action.' });
export type HTTPHeader = Static<typeof HTTPHeader>;

export const URISchemes = ['HTTP', 'HTTPS'] as const;

export const HTTPGetAction = object(`${P}.HTTPGetAction`, {
  path: opt(str(1, { default: '/', description: 'Path to request. Default /.' })),
  port: intOrString(2, { description: 'Port to connect to: a number from 1 to 65535 or the name of a container port.' }),
  host: opt(str(3, {
    description: 'Host to connect to; the pod IP when empty. To send another virtual host, set a Host header instead.',
  })),
  scheme: opt(enumOf(4, URISchemes, { default: 'HTTP', description: 'HTTP (the default) or HTTPS; certificates are not verified.' })),
  httpHeaders: opt(list(5, HTTPHeader, { listType: 'atomic' }, { description: 'Extra headers to send with the request.' })),
}, { required: ['port'], description: 'An HTTP GET request; a status from 200 to 399 counts as success.' });
export type HTTPGetAction = Static<typeof HTTPGetAction>;

export const TCPSocketAction = object(`${P}.TCPSocketAction`, {
  port: intOrString(1, { description: 'Port to connect to: a number from 1 to 65535 or the name of a container port.' }),
  host: opt(str(2, { description: 'Host to connect to; the pod IP when empty.' })),
}, { required: ['port'], description: 'Opens a TCP connection; success when it connects.' });
export type TCPSocketAction = Static<typeof TCPSocketAction>;

export const GRPCAction = object(`${P}.GRPCAction`, {
  port: int32(1, { description: 'Port of the gRPC server, from 1 to 65535.' }),
  // Upstream's *string without omitempty: written even when unset (null), and defaulted to "".
  service: opt(str(2, {
    default: '',
    'x-orch-emit': 'always',
    description: 'Service name put in the health check request. Empty (the default) asks about the server as a whole.',
  })),
}, { required: ['port'], description: 'Calls the standard gRPC health checking service; SERVING counts as success.' });
export type GRPCAction = Static<typeof GRPCAction>;

export const SleepAction = object(`${P}.SleepAction`, {
  seconds: int64(1, { description: 'Seconds to wait.' }),
}, { required: ['seconds'], description: 'Waits for a number of seconds.' });
export type SleepAction = Static<typeof SleepAction>;

/** Probe: its ProbeHandler is embedded inline at field 1, followed by the timing fields. */
export const Probe = object(`${P}.Probe`, {
  ...embedded(1, {
    exec: opt(field(1, ExecAction, { description: 'Check by running a command in the container. Set exactly one action.' })),
    httpGet: opt(field(2, HTTPGetAction, { description: 'Check by sending an HTTP GET request. Set exactly one action.' })),
    tcpSocket: opt(field(3, TCPSocketAction, { description: 'Check by opening a TCP connection. Set exactly one action.' })),
    grpc: opt(field(4, GRPCAction, { description: 'Check by calling the gRPC health service. Set exactly one action.' })),
  }),
  initialDelaySeconds: opt(int32(2, { description: 'Seconds after the container starts before the first check. Default 0.' })),
  timeoutSeconds: opt(int32(3, { description: 'Seconds before a check times out. Default 1, minimum 1.' })),
  periodSeconds: opt(int32(4, { description: 'Seconds between checks. Default 10, minimum 1.' })),
  successThreshold: opt(int32(5, {
    description: 'Consecutive successes after a failure before the check counts as passing. Default 1; must be 1 for ' +
      'liveness and startup probes.',
  })),
  failureThreshold: opt(int32(6, { description: 'Consecutive failures before the check counts as failed. Default 3, minimum 1.' })),
  terminationGracePeriodSeconds: opt(int64(7, {
    'x-orch-emit': 'pointer',
    description: 'Grace period, in seconds, for stopping the container after this probe fails, instead of the pod\'s ' +
      'terminationGracePeriodSeconds. At least 1; not for readiness probes.',
  })),
}, { description: 'A periodic health check of a container and the thresholds that judge it.' });
export type Probe = Static<typeof Probe>;

export const LifecycleHandler = object(`${P}.LifecycleHandler`, {
  exec: opt(field(1, ExecAction, { description: 'Run a command in the container. Set exactly one action.' })),
  httpGet: opt(field(2, HTTPGetAction, { description: 'Send an HTTP GET request. Set exactly one action.' })),
  tcpSocket: opt(field(3, TCPSocketAction, { description: 'Deprecated and not run; accepted only for compatibility.' })),
  sleep: opt(field(4, SleepAction, { description: 'Wait for a number of seconds. Set exactly one action.' })),
}, { description: 'The action of a lifecycle hook.' });
export type LifecycleHandler = Static<typeof LifecycleHandler>;

export const Lifecycle = object(`${P}.Lifecycle`, {
  postStart: opt(field(1, LifecycleHandler, {
    description: 'Runs right after the container is created. If it fails the container is killed and restarted ' +
      'according to its restart policy; the container is not running until the hook completes.',
  })),
  preStop: opt(field(2, LifecycleHandler, {
    description: 'Runs before the container is stopped by a request or by management (probe failure, preemption, ...), ' +
      'not when it crashes. The grace period keeps counting while it runs.',
  })),
  stopSignal: opt(str(3, {
    'x-orch-emit': 'pointer',
    description: 'Signal sent to stop the container, e.g. SIGTERM; the runtime\'s default when unset. Needs ' +
      'spec.os.name to be set.',
  })),
}, { description: 'Actions run after a container starts and before it stops.' });
export type Lifecycle = Static<typeof Lifecycle>;
