// Type checking of a ValidatingAdmissionPolicy (upstream's validating TypeChecker): each validation
// expression and messageExpression is compiled again with `object` and `oldObject` typed as each
// kind the policy's resource rules name (at most ten, wildcards and sub-resources skipped) and
// `params` as its paramKind, variables composed in order. What fails to compile becomes a warning
// for the policy's status; the policy itself still runs with dynamic types, so a warning never
// changes what it admits.
import type { ExpressionWarning, ValidatingAdmissionPolicy } from '../../../../api/admissionregistration/v1/validating-admission-policy.js';
import { CompositionCompiler } from '../../../cel/admission/composition.js';
import { compile } from '../../../cel/compile.js';
import { schemaDeclType, type DeclType, type Schema } from '../../../cel/types.js';
import type { GroupVersionKind, GroupVersionResource } from '../../interfaces.js';
import { parseAPIVersion } from '../params.js';

/** How many kinds one policy is checked against (upstream's maxTypesToCheck). */
const maxTypesToCheck = 10;

export interface TypeCheckerDeps {
  /** The kind a served resource speaks; undefined when it is not served. */
  kindFor(resource: GroupVersionResource): GroupVersionKind | undefined;
  /** The OpenAPI schema of a kind, its references resolved; undefined when there is none. */
  schemaFor(kind: GroupVersionKind): Schema | undefined;
}

/** Go's `%v` of a schema.GroupVersionKind, which starts each warning. */
const gvkString = (k: GroupVersionKind) => `${k.group}/${k.version}, Kind=${k.kind}`;
const gvkKey = (k: GroupVersionKind) => `${k.group}\u0000${k.version}\u0000${k.kind}`;

export class TypeChecker {
  constructor(private readonly deps: TypeCheckerDeps) {}

  /** The warnings of every expression that does not type-check against some kind the policy matches, in spec order. */
  check(policy: ValidatingAdmissionPolicy): ExpressionWarning[] {
    const spec = policy.spec ?? {};
    const paramsType = this.paramsType(policy);
    // One compiler per kind, its variables compiled once for all expressions.
    const compilers = this.kindsToCheck(policy).flatMap((kind) => {
      const objectType = this.declType(kind);
      if (!objectType) return [];
      const compiler = new CompositionCompiler({ params: spec.paramKind !== undefined && spec.paramKind !== null, objectType, ...(paramsType ? { paramsType } : {}) });
      for (const v of spec.variables ?? []) compiler.addVariable(v.name, v.expression);
      return [{ kind, compiler }];
    });
    const warnings: ExpressionWarning[] = [];
    const checkExpression = (fieldRef: string, expression: string) => {
      const problems = compilers.flatMap(({ kind, compiler }) => {
        const r = compile(compiler.env(true), expression);
        return r.error !== undefined ? [`${gvkString(kind)}: ${r.error}\n`] : [];
      });
      if (problems.length > 0) warnings.push({ fieldRef, warning: problems.join('\n') });
    };
    (spec.validations ?? []).forEach((v, i) => {
      checkExpression(`spec.validations[${i}].expression`, v.expression);
      if (v.messageExpression) checkExpression(`spec.validations[${i}].messageExpression`, v.messageExpression);
    });
    return warnings;
  }

  private declType(kind: GroupVersionKind): DeclType | undefined {
    return schemaDeclType(this.deps.schemaFor(kind), true);
  }

  private paramsType(policy: ValidatingAdmissionPolicy): DeclType | undefined {
    const ref = policy.spec?.paramKind;
    const gv = ref ? parseAPIVersion(ref.apiVersion ?? '') : undefined;
    return gv && ref?.kind ? this.declType({ ...gv, kind: ref.kind }) : undefined;
  }

  /** The kinds the policy's resource rules name exactly, sorted by group, version and kind. */
  private kindsToCheck(policy: ValidatingAdmissionPolicy): GroupVersionKind[] {
    const kinds = new Map<string, GroupVersionKind>();
    const sorted = (xs: readonly string[] | undefined) => [...(xs ?? [])].sort();
    for (const rule of policy.spec?.matchConstraints?.resourceRules ?? []) {
      // A wildcard group or version gives up on the rule; wildcard and sub-resources are skipped.
      if ((rule.apiGroups ?? []).some((g) => g.includes('*')) || (rule.apiVersions ?? []).some((v) => v.includes('*'))) continue;
      const resources = sorted(rule.resources).filter((r) => !/[*/]/.test(r));
      let count = 0;
      for (const group of sorted(rule.apiGroups)) {
        for (const version of sorted(rule.apiVersions)) {
          for (const resource of resources) {
            const kind = this.deps.kindFor({ group, version, resource });
            if (!kind) continue;
            kinds.set(gvkKey(kind), kind);
            if (++count === maxTypesToCheck) return sortKinds([...kinds.values()]);
          }
        }
      }
    }
    return sortKinds([...kinds.values()]);
  }
}

function sortKinds(kinds: GroupVersionKind[]): GroupVersionKind[] {
  return kinds.sort((a, b) => (gvkKey(a) < gvkKey(b) ? -1 : gvkKey(a) > gvkKey(b) ? 1 : 0));
}
