// The type-checking controller of ValidatingAdmissionPolicy (upstream's
// validatingadmissionpolicy-status controller, run here in the API server beside the plug-in): each
// policy whose generation is newer than its status.observedGeneration is type-checked and its
// status written with the warnings and the generation checked. One policy at a time; a write that
// lost a race is left to the next change of the policy, which the cache reports again, and one that
// failed otherwise is tried again a second later. The server runs one controller however many
// threads serve (upstream runs one in the leading controller manager).
import type { ValidatingAdmissionPolicy, ValidatingAdmissionPolicyStatus } from '../../../../api/admissionregistration/v1/validating-admission-policy.js';
import type { Logger } from '../../../log/logger.js';
import type { TypeChecker } from './type-checking.js';

export interface PolicyStatusDeps {
  checker: TypeChecker;
  /**
   * Applies `status` (the fields this controller owns) to the stored policy, provided it still has
   * `policy`'s generation; resolves without writing when the policy is gone or newer.
   */
  applyStatus(policy: ValidatingAdmissionPolicy, status: ValidatingAdmissionPolicyStatus): Promise<void>;
  logger: Logger | undefined;
  /** Resolves once the served kinds are current (custom resources defined by now are served); absent when they are fixed. */
  kindsCurrent?(): Promise<void>;
}

const nameOf = (p: ValidatingAdmissionPolicy) => p.metadata?.name ?? '';
/** How long a failed status write waits before it is tried again. */
const retryDelayMs = 1000;

export class PolicyStatusController {
  /** The newest version of each policy waiting to be checked. */
  private readonly pending = new Map<string, ValidatingAdmissionPolicy>();
  private running: Promise<void> | undefined;
  private stopped = false;
  private readonly retries = new Set<NodeJS.Timeout>();

  constructor(private readonly deps: PolicyStatusDeps) {}

  /** Takes a policy the cache reports (added or changed); a deleted one is simply never reported again. */
  observe(policy: ValidatingAdmissionPolicy): void {
    if (this.stopped || (policy.metadata?.generation ?? 0) <= (policy.status?.observedGeneration ?? 0)) return;
    this.pending.set(nameOf(policy), policy);
    this.running ??= this.drain().finally(() => (this.running = undefined));
  }

  /** Stops taking policies and waits for the write under way. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.pending.clear();
    for (const t of this.retries) clearTimeout(t);
    await this.running;
  }

  /** Resolves once every policy reported so far is checked (tests). */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  private async drain(): Promise<void> {
    for (let next = this.take(); next && !this.stopped; next = this.take()) {
      try {
        // A policy written just after a definition is checked against it, whichever process saw which first.
        await this.deps.kindsCurrent?.();
        const expressionWarnings = this.deps.checker.check(next);
        await this.deps.applyStatus(next, {
          observedGeneration: next.metadata?.generation ?? 0,
          typeChecking: expressionWarnings.length > 0 ? { expressionWarnings } : {},
        });
      } catch (e) {
        this.deps.logger?.warnText(`failed to write the type checking status of ValidatingAdmissionPolicy ${nameOf(next)}: ${e instanceof Error ? e.message : String(e)}`);
        this.retry(next);
      }
    }
  }

  private retry(policy: ValidatingAdmissionPolicy): void {
    const t = setTimeout(() => {
      this.retries.delete(t);
      // A newer version reported meanwhile is the one to check.
      if (!this.pending.has(nameOf(policy))) this.observe(policy);
    }, retryDelayMs);
    t.unref();
    this.retries.add(t);
  }

  private take(): ValidatingAdmissionPolicy | undefined {
    const [name, policy] = this.pending.entries().next().value ?? [];
    if (name === undefined) return undefined;
    this.pending.delete(name);
    return policy;
  }
}
