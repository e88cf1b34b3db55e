// admissionregistration/v1 ValidatingAdmissionPolicy and ValidatingAdmissionPolicyBinding: CEL
// validations the server itself runs on admission, and where they apply. Field numbers follow
// upstream's admissionregistration/v1 generated.proto.
//
// Fields upstream requires once defaults are in (failurePolicy, matchPolicy, both selectors, a
// paramRef's parameterNotFoundAction) are reported by the kinds' validation with upstream's
// messages, not by `required` here.
import { Type, type Static } from '@sinclair/typebox';
import { enumOf, field, int64, list, object, opt, str, stringList, type ListMarkers } from '../../schema.js';
import { embedded } from '../../embedded-fields.js';
import { Condition, LabelSelector, topLevel } from '../../meta/v1/types.js';
import { FailurePolicies, MatchCondition, MatchPolicies, RuleWithOperations } from './webhook-configuration.js';

const P = 'io.orch.api.admissionregistration.v1';

/** What a binding does with a failed validation, sorted as upstream lists them. */
export const ValidationActions = ['Audit', 'Deny', 'Warn'] as const;
export type ValidationAction = (typeof ValidationActions)[number];
export const ParameterNotFoundActions = ['Deny', 'Allow'] as const;
/** The reasons a validation may give a denial, sorted as upstream lists them. */
export const ValidationReasons = ['Forbidden', 'Invalid', 'RequestEntityTooLarge'] as const;

const byName: ListMarkers = { listType: 'map', mapKeys: ['name'], patchStrategy: 'merge', patchMergeKey: 'name' };

export const ParamKind = object(`${P}.ParamKind`, {
  apiVersion: opt(str(1, { description: 'API version of the parameter kind, as group/version (v1 for the core group), e.g. v1 or example.com/v1.' })),
  kind: opt(str(2, { description: 'Kind of the parameter resources, e.g. ConfigMap.' })),
}, { 'x-orch-map-type': 'atomic', description: 'The kind of the resources that parameterize a policy; each binding names the parameters it uses.' });
export type ParamKind = Static<typeof ParamKind>;

export const NamedRuleWithOperations = object(`${P}.NamedRuleWithOperations`, {
  resourceNames: opt(stringList(1, { listType: 'atomic' }, {
    description: 'Names of the objects the rule covers; empty covers every object.',
  })),
  // Upstream embeds RuleWithOperations inline: flat in JSON, a sub-message at field 2 in protobuf.
  ...embedded(2, RuleWithOperations.properties),
}, { 'x-orch-map-type': 'atomic', description: 'Operations on resources, optionally narrowed to objects by name.' });
export type NamedRuleWithOperations = Static<typeof NamedRuleWithOperations>;

export const MatchResources = object(`${P}.MatchResources`, {
  namespaceSelector: opt(field(1, LabelSelector, {
    default: {},
    description: 'Labels the namespace of the object (or a Namespace itself) must carry; cluster-scoped objects other than ' +
      'namespaces always match. Defaults to the empty selector, matching everything.',
  })),
  objectSelector: opt(field(2, LabelSelector, {
    default: {},
    description: 'Labels the object (or, for updates and deletes, its old state) must carry. Defaults to the empty selector, matching everything.',
  })),
  resourceRules: opt(list(3, NamedRuleWithOperations, { listType: 'atomic' }, {
    description: 'The operations and resources that match; any one rule matching suffices.',
  })),
  excludeResourceRules: opt(list(4, NamedRuleWithOperations, { listType: 'atomic' }, {
    description: 'Operations and resources that never match, whatever resourceRules say.',
  })),
  matchPolicy: opt(enumOf(7, MatchPolicies, {
    default: 'Equivalent',
    'x-orch-emit': 'pointer',
    description: 'Exact matches requests only through the groups, versions and resources the rules name; Equivalent also ' +
      'matches the same objects reached through another group or version, converted to one the rules name. Defaults to Equivalent.',
  })),
}, { 'x-orch-map-type': 'atomic', description: 'Which requests a policy or binding applies to: by resource, namespace and object labels.' });
export type MatchResources = Static<typeof MatchResources>;

export const Validation = object(`${P}.Validation`, {
  expression: str(1, {
    description: 'CEL expression that must yield true for the request to pass. It reads object, oldObject, request, params, ' +
      'namespaceObject, variables and authorizer.',
  }),
  message: opt(str(2, { description: 'Message returned when the validation fails; defaults to "failed expression: <expression>".' })),
  reason: opt(str(3, {
    'x-orch-emit': 'pointer',
    description: 'Reason and HTTP code of a denial: Forbidden (403), Invalid (422, the default) or RequestEntityTooLarge (413).',
  })),
  messageExpression: opt(str(4, {
    description: 'CEL expression yielding the message of a failure, in place of message when it evaluates to a non-empty single-line string.',
  })),
}, { required: ['expression'], description: 'One CEL check a request must pass.' });
export type Validation = Static<typeof Validation>;

export const Variable = object(`${P}.Variable`, {
  name: str(1, { description: 'Name of the variable, a CEL identifier; expressions read it as variables.<name>.' }),
  expression: str(2, { description: 'CEL expression computing the value; evaluated at most once per request, when first read.' }),
}, { required: ['name', 'expression'], 'x-orch-map-type': 'atomic', description: 'A named CEL value the other expressions of a policy can read.' });
export type Variable = Static<typeof Variable>;

export const AuditAnnotation = object(`${P}.AuditAnnotation`, {
  key: str(1, {
    description: 'Key of the audit annotation, unique in the policy; the annotation is recorded as <policy name>/<key>.',
  }),
  valueExpression: str(2, {
    description: 'CEL expression yielding the annotation\'s value as a string; null or an empty string records nothing.',
  }),
}, { required: ['key', 'valueExpression'], description: 'An annotation a policy adds to the audit event of a request it matches.' });
export type AuditAnnotation = Static<typeof AuditAnnotation>;

export const ValidatingAdmissionPolicySpec = object(`${P}.ValidatingAdmissionPolicySpec`, {
  paramKind: opt(field(1, ParamKind, { description: 'The kind of the parameters a binding gives the policy; without it the policy takes none.' })),
  matchConstraints: opt(field(2, MatchResources, {
    description: 'The requests the policy may apply to; its bindings can only narrow them. resourceRules is required.',
  })),
  validations: opt(list(3, Validation, { listType: 'atomic' }, { description: 'The checks a matching request must pass.' })),
  failurePolicy: opt(enumOf(4, FailurePolicies, {
    default: 'Fail',
    'x-orch-emit': 'pointer',
    description: 'What an evaluation error or a misconfigured policy or binding means: Fail rejects the request, Ignore ' +
      'lets it through. Defaults to Fail.',
  })),
  auditAnnotations: opt(list(5, AuditAnnotation, { listType: 'atomic' }, {
    description: 'Annotations added to the audit event of each matching request.',
  })),
  matchConditions: opt(list(6, MatchCondition, byName, {
    description: 'Up to 64 CEL conditions a matching request must also meet for the policy to apply.',
  })),
  variables: opt(list(7, Variable, byName, {
    description: 'Named CEL values, in order; each may read the ones before it.',
  })),
}, { description: 'What a ValidatingAdmissionPolicy checks, and on which requests.' });
export type ValidatingAdmissionPolicySpec = Static<typeof ValidatingAdmissionPolicySpec>;

export const ExpressionWarning = object(`${P}.ExpressionWarning`, {
  fieldRef: str(2, { description: 'Path of the expression the warning is about, e.g. spec.validations[0].expression.' }),
  warning: str(3, { description: 'What type checking found, for each kind the expression was checked against.' }),
}, { required: ['fieldRef', 'warning'], description: 'A problem type checking found in one expression.' });
export type ExpressionWarning = Static<typeof ExpressionWarning>;

export const TypeChecking = object(`${P}.TypeChecking`, {
  expressionWarnings: opt(list(1, ExpressionWarning, { listType: 'atomic' }, { description: 'The warnings, one per expression with problems.' })),
}, { description: 'The results of type checking a policy\'s expressions against the kinds it matches.' });
export type TypeChecking = Static<typeof TypeChecking>;

export const ValidatingAdmissionPolicyStatus = object(`${P}.ValidatingAdmissionPolicyStatus`, {
  observedGeneration: opt(int64(1, { description: 'The generation of the policy the status describes.' })),
  typeChecking: opt(field(2, TypeChecking, { description: 'The results of type checking; present once type checking is done.' })),
  conditions: opt(list(3, Condition, { listType: 'map', mapKeys: ['type'] }, { description: 'The latest observations of the policy\'s state.' })),
}, { description: 'What the server observed about a ValidatingAdmissionPolicy.' });
export type ValidatingAdmissionPolicyStatus = Static<typeof ValidatingAdmissionPolicyStatus>;

export const ValidatingAdmissionPolicy = topLevel(`${P}.ValidatingAdmissionPolicy`, {
  spec: opt(field(2, ValidatingAdmissionPolicySpec, { 'x-orch-emit': 'always', description: 'The policy: its checks and the requests it applies to.' })),
  status: opt(field(3, ValidatingAdmissionPolicyStatus, {
    'x-orch-emit': 'always',
    description: 'What the server observed about the policy, such as type checking warnings. Read-only.',
  })),
}, { description: 'CEL validations the server runs on the requests a binding of the policy matches, accepting or refusing them without changing them.' });
export type ValidatingAdmissionPolicy = Static<typeof ValidatingAdmissionPolicy>;

export const ParamRef = object(`${P}.ParamRef`, {
  name: opt(str(1, { description: 'Name of the one parameter resource to use; exclusive with selector.' })),
  namespace: opt(str(2, {
    description: 'Namespace of the parameter resources (namespaced parameter kinds only); empty takes the namespace of the request.',
  })),
  selector: opt(field(3, LabelSelector, {
    description: 'Labels of the parameter resources to use, the policy being evaluated once for each; exclusive with name.',
  })),
  parameterNotFoundAction: opt(Type.Unsafe<(typeof ParameterNotFoundActions)[number]>(Type.String({
    'x-proto': 4,
    'x-orch-emit': 'pointer',
    description: 'What happens when no parameter resource is found: Allow admits the request unvalidated, Deny refuses it. Required.',
  }))),
}, { 'x-orch-map-type': 'atomic', description: 'The parameter resources a binding gives its policy.' });
export type ParamRef = Static<typeof ParamRef>;

export const ValidatingAdmissionPolicyBindingSpec = object(`${P}.ValidatingAdmissionPolicyBindingSpec`, {
  policyName: opt(str(1, { description: 'Name of the ValidatingAdmissionPolicy bound; a binding to a missing policy does nothing. Required.' })),
  paramRef: opt(field(2, ParamRef, { description: 'The parameters the policy is evaluated with; required when the policy has a paramKind.' })),
  matchResources: opt(field(3, MatchResources, {
    description: 'Narrows the requests the policy applies to; only requests its matchConstraints match too are validated.',
  })),
  validationActions: opt(list(4, Type.Unsafe<ValidationAction>(Type.String()), { listType: 'set' }, {
    description: 'What a failed validation does: Deny refuses the request, Warn returns a warning, Audit records it in the audit ' +
      'event. At least one; Deny and Warn not together.',
  })),
}, { description: 'Which policy a binding applies, with which parameters, to which requests, and how failures act.' });
export type ValidatingAdmissionPolicyBindingSpec = Static<typeof ValidatingAdmissionPolicyBindingSpec>;

export const ValidatingAdmissionPolicyBinding = topLevel(`${P}.ValidatingAdmissionPolicyBinding`, {
  spec: opt(field(2, ValidatingAdmissionPolicyBindingSpec, { 'x-orch-emit': 'always', description: 'The policy bound, its parameters and where it applies.' })),
}, { description: 'Applies a ValidatingAdmissionPolicy to requests, with its parameters and validation actions.' });
export type ValidatingAdmissionPolicyBinding = Static<typeof ValidatingAdmissionPolicyBinding>;
