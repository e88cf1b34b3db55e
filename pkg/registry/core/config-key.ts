// Keys of ConfigMap and Secret data, and the size limit both share.
import { DNS1123SubdomainMaxLength } from '../validation/names.js';

/** Upstream MaxSecretSize: the most bytes the values of one ConfigMap or Secret may hold. */
export const MaxDataSize = 1024 * 1024;

const configKeyRe = /^[-._a-zA-Z0-9]+$/;

/** A key usable as a file name: `[-._a-zA-Z0-9]+`, not `.`, `..` or starting with `..`. */
export function isConfigMapKey(key: string): string[] {
  const errs: string[] = [];
  if (key.length > DNS1123SubdomainMaxLength) errs.push(`must be no more than ${DNS1123SubdomainMaxLength} characters`);
  if (!configKeyRe.test(key)) {
    errs.push("a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')");
  }
  if (key === '.') errs.push("must not be '.'");
  else if (key === '..') errs.push("must not be '..'");
  else if (key.startsWith('..')) errs.push("must not start with '..'");
  return errs;
}

/** The byte length of a base64 value as stored. */
export function decodedLength(base64: string): number {
  return Buffer.from(base64, 'base64').length;
}
