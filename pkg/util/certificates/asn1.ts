// Reading DER with node-forge's ASN.1 parser, the way Go's crypto/x509 reads it: the helpers the
// request parser, the certificate issuer and the client-certificate authenticator share.
import forge from 'node-forge';

const T = forge.asn1.Type;
const C = forge.asn1.Class;

/** DER that is not the structure expected; the message is what upstream would say. */
export class MalformedDER extends Error {}

/**
 * node-forge's strict DER reader, leaving BIT STRINGs as bytes (else one that happens to parse as
 * DER is replaced by its parse, losing the bits). `allowTrailing` reads the first structure and
 * leaves what follows, so a caller can tell trailing bytes from a truncated structure.
 */
export function parseDer(der: Buffer | string, opts: { allowTrailing?: boolean } = {}): forge.asn1.Asn1 {
  const fromDer = forge.asn1.fromDer as unknown as (b: string, o: object) => forge.asn1.Asn1;
  return fromDer(typeof der === 'string' ? der : der.toString('binary'), { strict: true, decodeBitStrings: false, parseAllBytes: !opts.allowTrailing });
}

/** The elements of a constructed node; MalformedDER(`message`) for anything else. */
export function asn1Children(node: forge.asn1.Asn1 | undefined, message: string): forge.asn1.Asn1[] {
  if (!node || !Array.isArray(node.value)) throw new MalformedDER(message);
  return node.value;
}

/** The content octets of a primitive node as a binary string; MalformedDER(`message`) for anything else. */
export function asn1Value(node: forge.asn1.Asn1 | undefined, message: string): string {
  if (!node || typeof node.value !== 'string') throw new MalformedDER(message);
  return node.value;
}

/** The content octets of a primitive node. */
export function asn1Bytes(node: forge.asn1.Asn1 | undefined, message: string): Buffer {
  return Buffer.from(asn1Value(node, message), 'binary');
}

/** A node written back as DER. */
export function asn1Der(node: forge.asn1.Asn1): Buffer {
  return Buffer.from(forge.asn1.toDer(node).getBytes(), 'binary');
}

/** The text of a string-typed attribute value as Go's parseASN1String decodes it; undefined for other types. */
export function asn1String(node: forge.asn1.Asn1): string | undefined {
  if (node.tagClass !== C.UNIVERSAL || typeof node.value !== 'string') return undefined;
  const raw = Buffer.from(node.value, 'binary');
  switch (node.type as number) {
    case T.UTF8:
      return raw.toString('utf8');
    case T.PRINTABLESTRING:
    case T.IA5STRING:
    case 18: // NumericString
    case 20: // T61String: Go reads it as ISO 8859-1
      return raw.toString('latin1');
    case T.BMPSTRING: {
      const swapped = Buffer.from(raw);
      if (swapped.length % 2 === 0) swapped.swap16();
      return swapped.toString('utf16le');
    }
    default:
      return undefined;
  }
}
