// Which admission plug-ins run, and in what order, from kube-apiserver's flags: the names are
// upstream's, the run order is always the fixed order below whatever order the flags name them
// in, and a plug-in is on when it is recommended (on by default) or enabled, and not disabled.
// A known name the server has no code for (builtin.ts registers none) is refused like an unknown
// one once it is on: a security control accepted and ignored is worse than one refused.

/**
 * Every plug-in name the server knows, in run order: kube-apiserver 1.30's AllOrderedPlugins.
 * SecurityContextDeny, which 1.30 dropped, is kept at its former place because our specification
 * still documents it (off by default, as it always was). The webhooks, ResourceQuota and AlwaysDeny
 * stay last, as upstream requires.
 */
export const AllOrderedPlugins: readonly string[] = [
  'AlwaysAdmit',
  'NamespaceAutoProvision',
  'NamespaceLifecycle',
  'NamespaceExists',
  'SecurityContextDeny',
  'LimitPodHardAntiAffinityTopology',
  'LimitRanger',
  'ServiceAccount',
  'NodeRestriction',
  'TaintNodesByCondition',
  'AlwaysPullImages',
  'ImagePolicyWebhook',
  'PodSecurity',
  'PodNodeSelector',
  'Priority',
  'DefaultTolerationSeconds',
  'PodTolerationRestriction',
  'EventRateLimit',
  'ExtendedResourceToleration',
  'PersistentVolumeLabel',
  'DefaultStorageClass',
  'StorageObjectInUseProtection',
  'OwnerReferencesPermissionEnforcement',
  'PersistentVolumeClaimResize',
  'RuntimeClass',
  'CertificateApproval',
  'CertificateSigning',
  'ClusterTrustBundleAttest',
  'CertificateSubjectRestriction',
  'DefaultIngressClass',
  'DenyServiceExternalIPs',
  'MutatingAdmissionWebhook',
  'ValidatingAdmissionPolicy',
  'ValidatingAdmissionWebhook',
  'ResourceQuota',
  'AlwaysDeny',
];

/**
 * The plug-ins that run when no flag says otherwise: kube-apiserver 1.30's recommended set, less
 * ClusterTrustBundleAttest (it guards an API not served), since an unrunnable plug-in that is on
 * refuses the start.
 */
export const DefaultOnPlugins: ReadonlySet<string> = new Set([
  'NamespaceLifecycle',
  'LimitRanger',
  'ServiceAccount',
  'DefaultStorageClass',
  'PersistentVolumeClaimResize',
  'DefaultTolerationSeconds',
  'MutatingAdmissionWebhook',
  'ValidatingAdmissionPolicy',
  'ValidatingAdmissionWebhook',
  'ResourceQuota',
  'StorageObjectInUseProtection',
  'Priority',
  'TaintNodesByCondition',
  'RuntimeClass',
  'CertificateApproval',
  'CertificateSigning',
  'CertificateSubjectRestriction',
  'DefaultIngressClass',
  'PodSecurity',
]);

/** The known plug-ins that are off unless enabled. */
export function defaultOffPlugins(order: readonly string[] = AllOrderedPlugins): string[] {
  return order.filter((p) => !DefaultOnPlugins.has(p));
}

/**
 * A string-slice flag's values: each occurrence split at commas, occurrences appended. Names are
 * taken as given (no trimming), so ` Priority` is an unknown name exactly as upstream finds it; an
 * empty value is an empty list. Undefined when the flag was not given at all.
 */
export function parsePluginList(value: string | readonly string[] | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  const occurrences = typeof value === 'string' ? [value] : value;
  return occurrences.flatMap((v) => (v === '' ? [] : v.split(',')));
}

export interface AdmissionPluginFlags {
  /** --enable-admission-plugins */
  enable?: readonly string[] | undefined;
  /** --disable-admission-plugins */
  disable?: readonly string[] | undefined;
  /** The deprecated --admission-control: exactly these plug-ins, exclusive with the two above. */
  admissionControl?: readonly string[] | undefined;
}

/**
 * Every problem with the flags, worded as kube-apiserver reports them; empty when they are fine.
 * With `runnable` (the plug-ins the server has code for) a plug-in the flags leave on that is not
 * runnable is refused too, named as the flag (or the default set) that turned it on.
 */
export function validateAdmissionPluginFlags(flags: AdmissionPluginFlags, runnable?: Iterable<string>): string[] {
  const errs: string[] = [];
  const known = new Set(AllOrderedPlugins);
  if (flags.admissionControl !== undefined && (flags.enable !== undefined || flags.disable !== undefined)) {
    errs.push('admission-control and enable-admission-plugins/disable-admission-plugins flags are mutually exclusive');
  }
  for (const name of flags.admissionControl ?? []) {
    if (!known.has(name)) errs.push(`admission-control plugin ${JSON.stringify(name)} is unknown`);
  }
  for (const name of flags.enable ?? []) {
    if (!known.has(name)) errs.push(`enable-admission-plugins plugin ${JSON.stringify(name)} is unknown`);
  }
  for (const name of flags.disable ?? []) {
    if (!known.has(name)) errs.push(`disable-admission-plugins plugin ${JSON.stringify(name)} is unknown`);
  }
  const disabled = new Set(flags.disable ?? []);
  const both = [...new Set((flags.enable ?? []).filter((n) => disabled.has(n)))].sort();
  if (both.length > 0) {
    // Go prints the sorted name list as `[A B]`.
    errs.push(`[${both.join(' ')}] in enable-admission-plugins and disable-admission-plugins overlapped`);
  }
  if (runnable !== undefined && errs.length === 0) errs.push(...unrunnable(flags, new Set(runnable)));
  return errs;
}

/** A refusal for each plug-in the flags leave on that the server cannot run. */
function unrunnable(flags: AdmissionPluginFlags, runnable: ReadonlySet<string>): string[] {
  const source = (name: string): string => {
    if (flags.admissionControl !== undefined) return 'admission-control plugin';
    return flags.enable?.includes(name) ? 'enable-admission-plugins plugin' : 'default admission plugin';
  };
  return enabledAdmissionPlugins(flags)
    .filter((name) => !runnable.has(name))
    .map((name) => `${source(name)} ${JSON.stringify(name)} is not implemented by this server`);
}

/**
 * The plug-ins that run, in run order. Call after validateAdmissionPluginFlags found nothing.
 * With --admission-control exactly its names run; otherwise the recommended set, plus the
 * enabled, minus the disabled.
 */
export function enabledAdmissionPlugins(flags: AdmissionPluginFlags, order: readonly string[] = AllOrderedPlugins): string[] {
  if (flags.admissionControl !== undefined) {
    const chosen = new Set(flags.admissionControl);
    return order.filter((p) => chosen.has(p));
  }
  const enabled = new Set(flags.enable ?? []);
  const off = new Set([...defaultOffPlugins(order), ...(flags.disable ?? [])].filter((p) => !enabled.has(p)));
  return order.filter((p) => !off.has(p));
}
