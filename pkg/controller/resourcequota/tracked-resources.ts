// Which resources a quota's hard names count (as group and plural): the resources upstream's
// quota controller always replenishes from, plus any `count/<resource>[.<group>]` a quota names.

export interface GroupResource {
  group: string;
  resource: string;
}

/** Core resources with their own quota names (pods, services, claims, and the legacy object counts). */
export const baselineResources: GroupResource[] = [
  'pods', 'services', 'persistentvolumeclaims', 'configmaps', 'secrets', 'replicationcontrollers', 'resourcequotas',
].map((resource) => ({ group: '', resource }));

export const groupResourceKey = (gr: GroupResource): string => (gr.group ? `${gr.resource}.${gr.group}` : gr.resource);

/** The resources whose objects the quota's hard names may count, each once. */
export function resourcesCountedBy(hardNames: string[]): GroupResource[] {
  const out = new Map(baselineResources.map((gr) => [groupResourceKey(gr), gr]));
  for (const name of hardNames) {
    if (!name.startsWith('count/')) continue;
    const rest = name.slice('count/'.length);
    const dot = rest.indexOf('.');
    const gr = dot < 0 ? { group: '', resource: rest } : { group: rest.slice(dot + 1), resource: rest.slice(0, dot) };
    if (gr.resource) out.set(groupResourceKey(gr), gr);
  }
  return [...out.values()];
}
