// The configured plug-ins as one admission step per phase. Like upstream's chain, each phase runs
// the plug-ins in their configured order and stops at the first rejection; the mutating phase
// runs a second time when a plug-in (a mutating webhook) changed the object and asked for it, so
// the plug-ins before it see the change (upstream's reinvoker). Each phase and each plug-in's run
// is timed for the admission latency metrics, as upstream's step and controller decorators do.
import type { StatusError } from '../runtime/errors.js';
import { toAdmissionError } from './errors.js';
import { isMutating, isValidating, type AdmissionObserver, type AdmissionPlugin, type Attributes, type MutationInterface, type Operation, type ValidationInterface } from './interfaces.js';

const seconds = (start: bigint) => Number(process.hrtime.bigint() - start) / 1e9;

export class AdmissionChain {
  readonly plugins: readonly AdmissionPlugin[];
  private readonly mutators: readonly MutationInterface[];
  private readonly validators: readonly ValidationInterface[];

  constructor(plugins: readonly AdmissionPlugin[], private readonly observer?: AdmissionObserver) {
    this.plugins = plugins;
    this.mutators = plugins.filter(isMutating);
    this.validators = plugins.filter(isValidating);
  }

  /** The plug-in names in run order. */
  get names(): string[] {
    return this.plugins.map((p) => p.name);
  }

  /** Whether any plug-in cares about `operation`; when none does the handler may skip admission. */
  handles(operation: Operation): boolean {
    return this.plugins.some((p) => p.handles(operation));
  }

  /**
   * The mutating phase: every mutating plug-in that handles the operation, in order; a second pass
   * when one asked for it. Throws the StatusError of the first rejection.
   */
  async admit(attrs: Attributes): Promise<void> {
    await this.timedStep('admit', attrs, async () => {
      await this.runMutators(attrs);
      const rc = attrs.reinvocation;
      if (rc.shouldReinvoke() && !rc.isReinvoke()) {
        rc.setIsReinvoke();
        await this.runMutators(attrs);
      }
    });
  }

  /** The validating phase; the registry calls it through its validation callback. Throws the first rejection. */
  async validate(attrs: Attributes): Promise<void> {
    await this.timedStep('validate', attrs, async () => {
      for (const p of this.validators) {
        if (!p.handles(attrs.operation)) continue;
        const pending = this.guard(p.name, 'validate', attrs, () => p.validate(attrs));
        if (pending) await pending;
      }
    });
  }

  private async runMutators(attrs: Attributes): Promise<void> {
    for (const p of this.mutators) {
      if (!p.handles(attrs.operation)) continue;
      const pending = this.guard(p.name, 'admit', attrs, () => p.admit(attrs));
      if (pending) await pending;
    }
  }

  private async timedStep(type: 'admit' | 'validate', attrs: Attributes, run: () => Promise<void>): Promise<void> {
    const start = process.hrtime.bigint();
    let rejected = true;
    try {
      await run();
      rejected = false;
    } finally {
      this.observer?.step(type, attrs.operation, rejected, seconds(start));
    }
  }

  /**
   * Runs one plug-in, timed, its rejection turned into the admission error. A plug-in that answers
   * synchronously (most built-in ones) is finished without a promise of its own: a write passes
   * through every plug-in, so an await per plug-in is a real share of its cost.
   */
  private guard(name: string, type: 'admit' | 'validate', attrs: Attributes, run: () => void | Promise<void>): void | Promise<void> {
    const start = process.hrtime.bigint();
    const rejectedWith = (e: unknown): StatusError => {
      const err = toAdmissionError(attrs, e);
      this.observer?.controller(name, type, attrs.operation, true, seconds(start));
      return err;
    };
    let result: void | Promise<void>;
    try {
      result = run();
    } catch (e) {
      throw rejectedWith(e);
    }
    if (!result || typeof (result as Promise<void>).then !== 'function') {
      this.observer?.controller(name, type, attrs.operation, false, seconds(start));
      return;
    }
    return result.then(
      () => this.observer?.controller(name, type, attrs.operation, false, seconds(start)),
      (e: unknown) => {
        throw rejectedWith(e);
      },
    );
  }
}

/**
 * Marks the object of `attrs` as changed by a plug-in in the mutating phase so the chain runs the
 * phase once more (only during the first pass: a second pass never asks for a third). Webhook
 * plug-ins call this after applying a patch that changed the object.
 */
export function requestReinvocation(attrs: Attributes): void {
  if (!attrs.reinvocation.isReinvoke()) attrs.reinvocation.setShouldReinvoke();
}
