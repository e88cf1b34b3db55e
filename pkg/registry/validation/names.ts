// Name and value formats shared by every kind. Each check returns the list of problems in
// upstream's wording; an empty list means the value is valid.

const dns1123LabelFmt = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const dns1123LabelRe = new RegExp(`^${dns1123LabelFmt}$`);
const dns1123SubdomainRe = new RegExp(`^${dns1123LabelFmt}(\\.${dns1123LabelFmt})*$`);
const qualifiedNameRe = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
const labelValueRe = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;

export const DNS1123LabelMaxLength = 63;
export const DNS1123SubdomainMaxLength = 253;
export const LabelValueMaxLength = 63;
const QualifiedNameMaxLength = 63;

const regexHint = (re: string, examples: string[]) =>
  `e.g. ${examples.map((e) => `'${e}'`).join(',  or ')}, regex used for validation is '${re}'`;

/** RFC 1123 label: lower-case alphanumerics and '-', at most 63 characters. */
export function isDNS1123Label(value: string): string[] {
  const errs: string[] = [];
  if (value.length > DNS1123LabelMaxLength) errs.push(`must be no more than ${DNS1123LabelMaxLength} characters`);
  if (!dns1123LabelRe.test(value)) {
    errs.push(
      "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (" +
        regexHint(dns1123LabelFmt, ['my-name', '123-abc']) + ')',
    );
  }
  return errs;
}

const dns1035Re = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;

/** RFC 1035 label: a lower-case letter, then lower-case alphanumerics and '-', at most 63 characters (Service names, API version names). */
export function isDNS1035Label(value: string): string[] {
  const errs: string[] = [];
  if (value.length > DNS1123LabelMaxLength) errs.push(`must be no more than ${DNS1123LabelMaxLength} characters`);
  if (!dns1035Re.test(value)) {
    errs.push("a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (" +
      regexHint('[a-z]([-a-z0-9]*[a-z0-9])?', ['my-name', 'abc-123']) + ')');
  }
  return errs;
}

/** RFC 1123 subdomain: labels joined by '.', at most 253 characters. */
export function isDNS1123Subdomain(value: string): string[] {
  const errs: string[] = [];
  if (value.length > DNS1123SubdomainMaxLength) errs.push(`must be no more than ${DNS1123SubdomainMaxLength} characters`);
  if (!dns1123SubdomainRe.test(value)) {
    errs.push(
      "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (" +
        regexHint(`${dns1123LabelFmt}(\\.${dns1123LabelFmt})*`, ['example.com']) + ')',
    );
  }
  return errs;
}

/** A label or annotation key: optional DNS subdomain prefix and '/', then a name of at most 63 characters. */
export function isQualifiedName(value: string): string[] {
  const errs: string[] = [];
  const parts = value.split('/');
  let name: string;
  if (parts.length === 1) {
    name = parts[0]!;
  } else if (parts.length === 2) {
    const [prefix, n] = parts as [string, string];
    name = n;
    if (prefix.length === 0) errs.push('prefix part must be non-empty');
    else for (const m of isDNS1123Subdomain(prefix)) errs.push(`prefix part ${m}`);
  } else {
    return [
      "a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
    ];
  }
  if (name.length === 0) errs.push('name part must be non-empty');
  else if (name.length > QualifiedNameMaxLength) errs.push(`name part must be no more than ${QualifiedNameMaxLength} characters`);
  if (name.length > 0 && !qualifiedNameRe.test(name)) {
    errs.push(
      "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
    );
  }
  return errs;
}

/**
 * A fully qualified domain name (upstream's IsFullyQualifiedDomainName): a DNS subdomain of at least
 * two labels, a trailing '.' allowed; the first problem as [bad value, message], or undefined.
 */
export function fullyQualifiedDomainNameProblem(value: string): [string, string] | undefined {
  const name = value.endsWith('.') ? value.slice(0, -1) : value;
  const subdomain = isDNS1123Subdomain(name);
  if (subdomain.length > 0) return [name, subdomain.join(',')];
  const labels = name.split('.');
  if (labels.length < 2) return [name, 'should be a domain with at least two segments separated by dots'];
  for (const label of labels) {
    const bad = isDNS1123Label(label);
    if (bad.length > 0) return [label, bad.join(',')];
  }
  return undefined;
}

/** A label value: empty, or at most 63 alphanumerics, '-', '_' and '.', starting and ending alphanumeric. */
export function isLabelValue(value: string): string[] {
  const errs: string[] = [];
  if (value.length > LabelValueMaxLength) errs.push(`must be no more than ${LabelValueMaxLength} characters`);
  if (!labelValueRe.test(value)) {
    errs.push(
      "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
    );
  }
  return errs;
}

/** Names that must fit in one path segment (RBAC objects): not '.', '..', and no '/' or '%'. */
export function isPathSegmentName(value: string): string[] {
  if (value === '.' || value === '..') return [`may not be '${value}'`];
  const errs: string[] = [];
  for (const bad of ['/', '%']) if (value.includes(bad)) errs.push(`may not contain '${bad}'`);
  return errs;
}


/** A TCP/UDP port number, 1-65535. */
export function isValidPortNum(port: number): string[] {
  return Number.isInteger(port) && port >= 1 && port <= 65535 ? [] : ['must be between 1 and 65535, inclusive'];
}

/** An IANA service name used as a named port: at most 15 characters, lower-case alphanumerics and '-', a letter somewhere, no '--'. */
export function isValidPortName(port: string): string[] {
  const errs: string[] = [];
  if (port.length < 1 || port.length > 15) errs.push('must be no more than 15 characters');
  if (!/^[-a-z0-9]+$/.test(port)) errs.push("must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)");
  if (!/[a-z]/.test(port)) errs.push('must contain at least one letter (a-z)');
  if (port.includes('--')) errs.push("must not contain consecutive hyphens ('--')");
  if (port.startsWith('-') || port.endsWith('-')) errs.push("must not begin or end with a hyphen");
  return errs;
}

/** Validates a name, or a generateName prefix (which may end in '-' and be empty-suffixed). */
export type NameValidator = (name: string, prefix: boolean) => string[];

function maskTrailingDash(name: string): string {
  return name.length > 1 && name.endsWith('-') ? name.slice(0, -2) + 'a' : name;
}

export const nameIsDNSSubdomain: NameValidator = (name, prefix) => isDNS1123Subdomain(prefix ? maskTrailingDash(name) : name);
export const nameIsDNSLabel: NameValidator = (name, prefix) => isDNS1123Label(prefix ? maskTrailingDash(name) : name);
export const nameIsPathSegment: NameValidator = (name) => isPathSegmentName(name);
