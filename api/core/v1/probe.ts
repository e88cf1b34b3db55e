// Health probes and lifecycle hooks of a container and the actions they run.
import { Type, type Static } from '@sinclair/typebox';
import { enumOf, field, int32, int64, list, object, opt, str } from '../../schema.js';
import { intOrString } from '../../meta/v1/primitives.js';
import { embedded } from '../../embedded-fields.js';

const P = 'io.orch.api.core.v1';

export const ExecAction = object(`${P}.ExecAction`, {
  command: opt(list(1, Type.String(), { listType: 'atomic' })),
});
export type ExecAction = Static<typeof ExecAction>;

export const HTTPHeader = object(`${P}.HTTPHeader`, {
  name: str(1),
  value: str(2),
}, { required: ['name', 'value'] });
export type HTTPHeader = Static<typeof HTTPHeader>;

export const URISchemes = ['HTTP', 'HTTPS'] as const;

export const HTTPGetAction = object(`${P}.HTTPGetAction`, {
  path: opt(str(1, { default: '/' })),
  port: intOrString(2),
  host: opt(str(3)),
  scheme: opt(enumOf(4, URISchemes, { default: 'HTTP' })),
  httpHeaders: opt(list(5, HTTPHeader, { listType: 'atomic' })),
}, { required: ['port'] });
export type HTTPGetAction = Static<typeof HTTPGetAction>;

export const TCPSocketAction = object(`${P}.TCPSocketAction`, {
  port: intOrString(1),
  host: opt(str(2)),
}, { required: ['port'] });
export type TCPSocketAction = Static<typeof TCPSocketAction>;

export const GRPCAction = object(`${P}.GRPCAction`, {
  port: int32(1),
  service: opt(str(2, { default: '' })),
}, { required: ['port'] });
export type GRPCAction = Static<typeof GRPCAction>;

export const SleepAction = object(`${P}.SleepAction`, {
  seconds: int64(1),
}, { required: ['seconds'] });
export type SleepAction = Static<typeof SleepAction>;

/** Probe: its ProbeHandler is embedded inline at field 1, followed by the timing fields. */
export const Probe = object(`${P}.Probe`, {
  ...embedded(1, {
    exec: opt(field(1, ExecAction)),
    httpGet: opt(field(2, HTTPGetAction)),
    tcpSocket: opt(field(3, TCPSocketAction)),
    grpc: opt(field(4, GRPCAction)),
  }),
  initialDelaySeconds: opt(int32(2)),
  timeoutSeconds: opt(int32(3)),
  periodSeconds: opt(int32(4)),
  successThreshold: opt(int32(5)),
  failureThreshold: opt(int32(6)),
  terminationGracePeriodSeconds: opt(int64(7)),
});
export type Probe = Static<typeof Probe>;

export const LifecycleHandler = object(`${P}.LifecycleHandler`, {
  exec: opt(field(1, ExecAction)),
  httpGet: opt(field(2, HTTPGetAction)),
  tcpSocket: opt(field(3, TCPSocketAction)),
  sleep: opt(field(4, SleepAction)),
});
export type LifecycleHandler = Static<typeof LifecycleHandler>;

export const Lifecycle = object(`${P}.Lifecycle`, {
  postStart: opt(field(1, LifecycleHandler)),
  preStop: opt(field(2, LifecycleHandler)),
  stopSignal: opt(str(3)),
});
export type Lifecycle = Static<typeof Lifecycle>;
