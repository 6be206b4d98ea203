import crypto from 'node:crypto';
import net from 'node:net';

/**
 * A self-signed X.509 v3 certificate built with node:crypto only (Node has no certificate
 * builder, and we do not want to depend on an `openssl` binary being installed). It is a
 * minimal DER encoder for exactly the fields a TLS server certificate needs. RSA 2048 with
 * SHA-256, because camera bodies' TLS stacks do not all speak ECDSA.
 */

function derLength(n: number): Buffer {
  if (n < 0x80) return Buffer.from([n]);
  const bytes: number[] = [];
  for (let v = n; v > 0; v = Math.floor(v / 256)) bytes.unshift(v & 0xff);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}

function tlv(tag: number, ...content: Buffer[]): Buffer {
  const body = Buffer.concat(content);
  return Buffer.concat([Buffer.from([tag]), derLength(body.length), body]);
}

const seq = (...items: Buffer[]) => tlv(0x30, ...items);
const set = (...items: Buffer[]) => tlv(0x31, ...items);
const explicit = (n: number, inner: Buffer) => tlv(0xa0 + n, inner);
const nullValue = () => Buffer.from([0x05, 0x00]);
const bool = (v: boolean) => tlv(0x01, Buffer.from([v ? 0xff : 0x00]));
const utf8 = (s: string) => tlv(0x0c, Buffer.from(s, 'utf8'));
const octets = (b: Buffer) => tlv(0x04, b);
const bitString = (b: Buffer) => tlv(0x03, Buffer.from([0]), b);

function integer(bytes: Buffer): Buffer {
  let b = bytes;
  while (b.length > 1 && b[0] === 0 && (b[1] & 0x80) === 0) b = b.subarray(1);
  if (b[0] & 0x80) b = Buffer.concat([Buffer.from([0]), b]);
  return tlv(0x02, b);
}

function oid(dotted: string): Buffer {
  const [a, b, ...rest] = dotted.split('.').map(Number);
  const out = [40 * a + b];
  for (const n of rest) {
    const chunk: number[] = [];
    for (let v = n; ; v = Math.floor(v / 128)) {
      chunk.unshift((v & 0x7f) | (chunk.length ? 0x80 : 0));
      if (v < 128) break;
    }
    out.push(...chunk);
  }
  return tlv(0x06, Buffer.from(out));
}

function time(d: Date): Buffer {
  const iso = d.toISOString().replace(/[-:T]/g, '').slice(0, 14); // YYYYMMDDHHMMSS
  // RFC 5280: UTCTime up to 2049, GeneralizedTime from 2050.
  return d.getUTCFullYear() < 2050
    ? tlv(0x17, Buffer.from(`${iso.slice(2)}Z`))
    : tlv(0x18, Buffer.from(`${iso}Z`));
}

function subjectAltNames(names: string[]): Buffer {
  return seq(
    ...names.map((n) => {
      if (net.isIPv4(n)) return tlv(0x87, Buffer.from(n.split('.').map(Number)));
      return tlv(0x82, Buffer.from(n, 'ascii'));
    }),
  );
}

const extension = (id: string, critical: boolean, value: Buffer) =>
  seq(oid(id), ...(critical ? [bool(true)] : []), octets(value));

function toPem(label: string, der: Buffer): string {
  const lines = der.toString('base64').match(/.{1,64}/g) ?? [];
  return `-----BEGIN ${label}-----\n${lines.join('\n')}\n-----END ${label}-----\n`;
}

export interface SelfSigned {
  cert: string;
  key: string;
}

/** Creates a key pair and a self-signed certificate for `commonName` (also put in subjectAltName). */
export function createSelfSignedCertificate(options: {
  commonName: string;
  altNames?: string[];
  days?: number;
}): SelfSigned {
  const { publicKey, privateKey } = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
  const sha256WithRsa = seq(oid('1.2.840.113549.1.1.11'), nullValue());
  const name = seq(set(seq(oid('2.5.4.3'), utf8(options.commonName))));
  const serial = crypto.randomBytes(16);
  serial[0] &= 0x7f;
  const notBefore = new Date(Date.now() - 24 * 3600_000); // tolerate camera clocks that run behind
  const notAfter = new Date(Date.now() + (options.days ?? 3650) * 24 * 3600_000);
  const altNames = [...new Set([options.commonName, ...(options.altNames ?? [])])];
  const tbs = seq(
    explicit(0, integer(Buffer.from([2]))),
    integer(serial),
    sha256WithRsa,
    name,
    seq(time(notBefore), time(notAfter)),
    name,
    publicKey.export({ type: 'spki', format: 'der' }),
    explicit(
      3,
      seq(
        extension('2.5.29.19', true, seq()), // basicConstraints: not a CA
        extension('2.5.29.15', true, bitString(Buffer.from([0xa0]))), // keyUsage: digitalSignature, keyEncipherment
        extension('2.5.29.37', false, seq(oid('1.3.6.1.5.5.7.3.1'))), // extKeyUsage: serverAuth
        extension('2.5.29.17', false, subjectAltNames(altNames)),
      ),
    ),
  );
  const signature = crypto.sign('sha256', tbs, privateKey);
  const der = seq(tbs, sha256WithRsa, bitString(signature));
  return {
    cert: toPem('CERTIFICATE', der),
    key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  };
}
