// Upstream's utilrand.String: random lower-case strings for generated names, from an alphabet
// without vowels (no accidental words) and without digits that look like letters.
import { randomInt } from 'node:crypto';

const alphabet = 'bcdfghjklmnpqrstvwxz2456789';

/** `n` random characters of the name-generation alphabet. */
export function randomString(n: number): string {
  let s = '';
  for (let i = 0; i < n; i++) s += alphabet[randomInt(alphabet.length)];
  return s;
}
