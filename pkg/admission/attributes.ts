// The one Attributes value of a request: built by the endpoints handler before the mutating phase
// and carried to the validating phase, so both see the same object, annotations and reinvocation state.
import type { UserInfo } from '../runtime/user.js';
import { auditLevelIncludes, type AdmissionObject, type AlongsideWrite, type Attributes, type AuditLevel, type GroupVersionKind, type GroupVersionResource, type Operation, type ReinvocationContext } from './interfaces.js';

export interface AttributesInit {
  kind: GroupVersionKind;
  resource: GroupVersionResource;
  subresource?: string;
  name?: string;
  namespace?: string;
  operation: Operation;
  object?: AdmissionObject;
  oldObject?: AdmissionObject;
  options?: AdmissionObject;
  dryRun?: boolean;
  userInfo: UserInfo;
  /** Where warnings for the client go; dropped when absent. */
  warn?: (text: string) => void;
}

class Reinvocation implements ReinvocationContext {
  private reinvoke = false;
  private requested = false;
  private readonly values = new Map<string, unknown>();
  isReinvoke(): boolean { return this.reinvoke; }
  setIsReinvoke(): void { this.reinvoke = true; }
  shouldReinvoke(): boolean { return this.requested; }
  setShouldReinvoke(): void { this.requested = true; }
  setValue(plugin: string, value: unknown): void { this.values.set(plugin, value); }
  value(plugin: string): unknown { return this.values.get(plugin); }
}

const dnsSubdomain = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const qualifiedNamePart = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;

/** Why `key` cannot be an admission annotation key (upstream requires `<dns subdomain>/<name>`). */
export function invalidAnnotationKey(key: string): string | undefined {
  const parts = key.split('/');
  if (parts.length !== 2) {
    return "annotation key has invalid format, the right format is a DNS subdomain prefix and '/' and key name.";
  }
  const [prefix, name] = parts as [string, string];
  const msgs: string[] = [];
  if (prefix.length === 0) msgs.push('prefix part must be non-empty');
  else if (prefix.length > 253 || !dnsSubdomain.test(prefix)) msgs.push("prefix part a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character");
  if (name.length === 0) msgs.push('name part must be non-empty');
  else if (name.length > 63) msgs.push('name part must be no more than 63 characters');
  else if (!qualifiedNamePart.test(name)) msgs.push("name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character");
  return msgs.length ? `annotation key has invalid format ${msgs.join(',')}. A qualified name of the form '<plugin domain>/<key>' is required.` : undefined;
}

/** The Attributes of one request. `object` may be replaced through setObject; `objectChanged` says whether it was. */
export class AttributesRecord implements Attributes {
  readonly kind: GroupVersionKind;
  readonly resource: GroupVersionResource;
  readonly subresource: string;
  readonly name: string;
  readonly namespace: string;
  readonly operation: Operation;
  readonly oldObject: AdmissionObject | undefined;
  readonly options: AdmissionObject | undefined;
  readonly dryRun: boolean;
  readonly userInfo: UserInfo;
  readonly reinvocation: ReinvocationContext = new Reinvocation();
  private current: AdmissionObject | undefined;
  private readonly recorded = new Map<string, { value: string; level: AuditLevel }>();
  private alongside: AlongsideWrite[] = [];
  private attempt = 1;
  private readonly warnTo: ((text: string) => void) | undefined;

  constructor(init: AttributesInit) {
    this.kind = init.kind;
    this.resource = init.resource;
    this.subresource = init.subresource ?? '';
    this.name = init.name ?? '';
    this.namespace = init.namespace ?? '';
    this.operation = init.operation;
    this.current = init.object;
    this.oldObject = init.oldObject;
    this.options = init.options;
    this.dryRun = init.dryRun ?? false;
    this.userInfo = init.userInfo;
    this.warnTo = init.warn;
  }

  warn(text: string): void {
    this.warnTo?.(text);
  }

  get object(): AdmissionObject | undefined {
    return this.current;
  }

  setObject(object: AdmissionObject): void {
    this.current = object;
  }

  addAnnotation(key: string, value: string): void {
    this.addAnnotationWithLevel(key, value, 'Metadata');
  }

  addAnnotationWithLevel(key: string, value: string, level: AuditLevel): void {
    const why = invalidAnnotationKey(key);
    if (why) throw new Error(why);
    const old = this.recorded.get(key);
    if (old !== undefined && old.value !== value) {
      throw new Error(`admission annotations are not allowed to be overwritten, key:${JSON.stringify(key)}, old value: ${old.value}, new value: ${value}`);
    }
    this.recorded.set(key, { value, level });
  }

  annotations(level: AuditLevel = 'RequestResponse'): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [k, a] of this.recorded) if (auditLevelIncludes(level, a.level)) out[k] = a.value;
    return out;
  }

  get retrying(): boolean {
    return this.attempt > 1;
  }

  /** Starts the validating phase of try number `attempt` of the write: nothing to write alongside yet. */
  beginAttempt(attempt: number): void {
    this.attempt = attempt;
    this.alongside = [];
  }

  writeAlongside(write: AlongsideWrite): void {
    this.alongside.push(write);
  }

  /** What the plug-ins asked to write alongside in the current try. */
  alongsideWrites(): AlongsideWrite[] {
    return [...this.alongside];
  }
}
