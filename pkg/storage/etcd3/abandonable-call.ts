// An etcd call that can be given up while it is out: the etcd3 client hides the gRPC call, so an
// interceptor, which every call passes, keeps hold of it.
import type { Etcd3 } from 'etcd3';

/** The gRPC call options every etcd3 method takes. */
export type CallOptions = NonNullable<Parameters<Etcd3['kv']['range']>[1]>;
type Interceptor = NonNullable<CallOptions['interceptors']>[number];

/**
 * FAILED_PRECONDITION: a status the etcd3 client neither retries nor counts as the connection's
 * fault (CANCELLED and DEADLINE_EXCEEDED would make it close the member's connection, which every
 * other call out at the member shares).
 */
const GIVEN_UP = 9;

export class AbandonableCall {
  /** Why the call was given up; its caller gets this instead of the call's own error. */
  reason: Error | undefined;
  private call: { cancelWithStatus(code: number, details: string): void } | undefined;
  readonly options: CallOptions;

  constructor() {
    const keep: Interceptor = (options, nextCall) => {
      const call = nextCall(options);
      this.call = call;
      if (this.reason) call.cancelWithStatus(GIVEN_UP, this.reason.message);
      return call as ReturnType<Interceptor>;
    };
    this.options = { interceptors: [keep] };
  }

  /** Gives the call up: it ends at once with `reason`, whatever etcd does with it. */
  abandon(reason: Error): void {
    if (this.reason) return;
    this.reason = reason;
    this.call?.cancelWithStatus(GIVEN_UP, reason.message);
  }
}
