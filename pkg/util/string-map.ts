// Label and annotation maps compared by content, as Go's reflect.DeepEqual compares the maps of
// objects read off the wire (where an empty map and a missing one are both absent).

/** Whether two string maps hold the same keys with the same values, in any order; a missing map is empty. */
export function sameStringMap(a: Readonly<Record<string, string>> | undefined, b: Readonly<Record<string, string>> | undefined): boolean {
  const keys = Object.keys(a ?? {});
  if (keys.length !== Object.keys(b ?? {}).length) return false;
  return keys.every((k) => b !== undefined && Object.hasOwn(b, k) && b[k] === a![k]);
}
