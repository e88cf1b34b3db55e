// The pod-template-hash of a Deployment's template (upstream's controller.ComputeHash): a 32-bit
// FNV-1a of the template (here its canonical JSON: keys sorted, so equal templates hash equally
// whatever order the server wrote them in), salted with status.collisionCount when set, written
// with rand.SafeEncodeString's alphabet so it can neither spell words nor look like a number.
const safeAlphabet = 'bcdfghjklmnpqrstvwxz2456789';

/** JSON with object keys sorted at every level. */
export function canonicalJSON(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonicalJSON).join(',')}]`;
  if (v && typeof v === 'object') {
    return `{${Object.keys(v).sort().filter((k) => (v as Record<string, unknown>)[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${canonicalJSON((v as Record<string, unknown>)[k])}`).join(',')}}`;
  }
  return JSON.stringify(v);
}

function fnv32a(bytes: Uint8Array, seed = 0x811c9dc5): number {
  let h = seed;
  for (const b of bytes) {
    h ^= b;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

export function computePodTemplateHash(template: unknown, collisionCount?: number): string {
  const enc = new TextEncoder();
  let h = fnv32a(enc.encode(canonicalJSON(template)));
  if (collisionCount !== undefined && collisionCount !== null) {
    const salt = new Uint8Array(4);
    new DataView(salt.buffer).setUint32(0, collisionCount >>> 0, true);
    h = fnv32a(salt, h);
  }
  return [...String(h)].map((c) => safeAlphabet[c.charCodeAt(0) % safeAlphabet.length]).join('');
}
