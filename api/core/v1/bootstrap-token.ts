// The bootstrap token Secret (spec 2.12, upstream k8s.io/cluster-bootstrap/token/api): its name,
// data keys and the shapes of the token and its groups. Its type is secretTypes(d).bootstrapToken.

/** A bootstrap token Secret is named this prefix followed by the token id. */
export const BootstrapTokenSecretPrefix = 'bootstrap-token-';

/** Data keys of a bootstrap token Secret. */
export const BootstrapTokenKeys = {
  tokenId: 'token-id',
  tokenSecret: 'token-secret',
  description: 'description',
  expiration: 'expiration',
  extraGroups: 'auth-extra-groups',
  usagePrefix: 'usage-bootstrap-',
  usageAuthentication: 'usage-bootstrap-authentication',
  usageSigning: 'usage-bootstrap-signing',
} as const;

/** The usages a `usage-bootstrap-<usage>` key may name. */
export const KnownBootstrapTokenUsages = ['signing', 'authentication'] as const;

/** `<token-id>.<token-secret>`, as presented in a bearer header. */
export const BootstrapTokenPattern = /^([a-z0-9]{6})\.([a-z0-9]{16})$/;
export const BootstrapTokenIdPattern = /^[a-z0-9]{6}$/;
export const BootstrapTokenSecretPattern = /^[a-z0-9]{16}$/;
/** The pattern upstream prints when a group is refused. */
export const BootstrapGroupPatternText = '\\Asystem:bootstrappers:[a-z0-9:-]{0,255}[a-z0-9]\\z';
export const BootstrapGroupPattern = /^system:bootstrappers:[a-z0-9:-]{0,255}[a-z0-9]$/;

/** Username prefix and the group every bootstrap token user is in. */
export const BootstrapUserPrefix = 'system:bootstrap:';
export const BootstrapDefaultGroup = 'system:bootstrappers';

/**
 * The ConfigMap a joining machine downloads anonymously to learn the cluster's CA and address
 * (upstream's kube-public/cluster-info, k8s.io/cluster-bootstrap/token/api): `kubeconfig` holds
 * the client configuration, and each `jws-kubeconfig-<token-id>` a detached JWS of it made with
 * that bootstrap token (spec 2.12).
 */
export const ClusterInfo = {
  namespace: 'orch-public',
  name: 'cluster-info',
  kubeconfigKey: 'kubeconfig',
  signatureKeyPrefix: 'jws-kubeconfig-',
} as const;

/** Where bootstrap token Secrets live (upstream's kube-system). */
export const BootstrapTokenNamespace = 'orch-system';
