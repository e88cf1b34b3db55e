// Objects a watch hub or cache hands out are shared by every reader: frozen, so one reader cannot
// change what another sends.

/** Freezes `value` and everything reachable from it (typed arrays are left as they are). */
export function deepFreeze(value: unknown): void {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value) || ArrayBuffer.isView(value)) return;
  Object.freeze(value);
  for (const v of Object.values(value)) deepFreeze(v);
}
