// Operation IDs and tags, named as upstream names them (listAppsV1NamespacedStatefulSet,
// readCoreV1NamespaceStatus, tag apps_v1), so generated clients and docs read the same.

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

/** A group without the platform domain, as upstream drops .k8s.io from its names. */
function groupWord(group: string, domain: string): string {
  const g = group === '' ? 'core' : group;
  return g.endsWith(`.${domain}`) ? g.slice(0, -domain.length - 1) : g;
}

/** The group/version part of operation IDs: CoreV1, AppsV1, RbacAuthorizationV1. */
export function groupVersionPrefix(group: string, version: string, domain: string): string {
  return identifier(groupWord(group, domain), true) + identifier(version, true);
}

/** The group part of a group's own operation IDs (getAppsAPIGroup). */
export function groupPrefix(group: string, domain: string): string {
  return identifier(groupWord(group, domain), true);
}

/** The tag operations of a group/version are filed under: core_v1, apps_v1, rbacAuthorization_v1. */
export function groupVersionTag(group: string, version: string, domain: string): string {
  return `${identifier(groupWord(group, domain), false)}_${identifier(version, false)}`;
}

/** The tag of a group's own discovery operation: core, apps, rbacAuthorization. */
export function groupTag(group: string, domain: string): string {
  return identifier(groupWord(group, domain), false);
}

/** "status" -> "Status". */
export function capitalized(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}
