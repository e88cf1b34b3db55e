// Operation IDs and tags, named as upstream names them (listAppsV1NamespacedStatefulSet,
// readCoreV1NamespaceStatus, tag apps_v1), so generated clients and docs read the same.

/** Our groups end in the platform domain where upstream's end in .k8s.io; both drop it from names. */
const domainSuffix = '.orch.io';

/**
 * Letters, digits (not first) and underscores of `s`; any other character is dropped and
 * capitalises the letter after it ("rbac.authorization" -> "rbacAuthorization").
 */
export function identifier(s: string, capitalizeFirst: boolean): string {
  let out = '';
  let capitalize = capitalizeFirst;
  for (const ch of s) {
    const letter = /\p{L}/u.test(ch);
    if (letter || ch === '_' || (out !== '' && /[0-9]/.test(ch))) {
      out += capitalize && letter ? ch.toUpperCase() : ch;
      capitalize = false;
    } else {
      capitalize = true;
    }
  }
  return out;
}

function groupWord(group: string): string {
  const g = group === '' ? 'core' : group;
  return g.endsWith(domainSuffix) ? g.slice(0, -domainSuffix.length) : g;
}

/** The group/version part of operation IDs: CoreV1, AppsV1, RbacAuthorizationV1. */
export function groupVersionPrefix(group: string, version: string): string {
  return identifier(groupWord(group), true) + identifier(version, true);
}

/** The group part of a group's own operation IDs (getAppsAPIGroup). */
export function groupPrefix(group: string): string {
  return identifier(groupWord(group), true);
}

/** The tag operations of a group/version are filed under: core_v1, apps_v1, rbacAuthorization_v1. */
export function groupVersionTag(group: string, version: string): string {
  return `${identifier(groupWord(group), false)}_${identifier(version, false)}`;
}

/** The tag of a group's own discovery operation: core, apps, rbacAuthorization. */
export function groupTag(group: string): string {
  return identifier(groupWord(group), false);
}

/** "status" -> "Status". */
export function capitalized(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}
