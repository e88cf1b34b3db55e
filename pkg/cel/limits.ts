// Upstream's CEL limits (k8s.io/apiserver/pkg/apis/cel): what one program, one object's rules
// and one request's match conditions may cost at run time, and how long a message may get.

/** The most one program may cost (celconfig.PerCallLimit). */
export const perCallLimit = 1_000_000;
/** The runtime budget of one object's rules or one policy's validations (celconfig.RuntimeCELCostBudget). */
export const runtimeCostBudget = 10_000_000;
/** The runtime budget of one object's match conditions (celconfig.RuntimeCELCostBudgetMatchConditions). */
export const matchConditionsBudget = 2_500_000;
/** The longest message a messageExpression may yield (celconfig.MaxEvaluatedMessageExpressionSizeBytes). */
export const maxEvaluatedMessageExpressionSizeBytes = 5 * 1024;
