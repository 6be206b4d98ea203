// @peculiar/x509 builds on tsyringe, which needs the Reflect metadata API before it loads.
import 'reflect-metadata';
import { webcrypto } from 'node:crypto';
import net from 'node:net';
import * as x509 from '@peculiar/x509';

/**
 * A self-signed X.509 v3 certificate for the FTPS ingest, made with @peculiar/x509 on Node's
 * WebCrypto (no `openssl` binary needed). RSA 2048 with SHA-256, because camera bodies' TLS
 * stacks do not all speak ECDSA.
 */

export interface SelfSigned {
  cert: string;
  key: string;
}

const rsaSha256 = {
  name: 'RSASSA-PKCS1-v1_5',
  hash: 'SHA-256',
  publicExponent: new Uint8Array([1, 0, 1]),
  modulusLength: 2048,
};

function toPem(label: string, der: ArrayBuffer): string {
  const lines =
    Buffer.from(der)
      .toString('base64')
      .match(/.{1,64}/g) ?? [];
  return `-----BEGIN ${label}-----\n${lines.join('\n')}\n-----END ${label}-----\n`;
}

/** Creates a key pair and a self-signed certificate for `commonName` (also put in subjectAltName). */
export async function createSelfSignedCertificate(options: {
  commonName: string;
  altNames?: string[];
  days?: number;
}): Promise<SelfSigned> {
  const keys = await webcrypto.subtle.generateKey(rsaSha256, true, ['sign', 'verify']);
  const serial = Buffer.from(webcrypto.getRandomValues(new Uint8Array(16)));
  serial[0] &= 0x7f;
  const altNames = [...new Set([options.commonName, ...(options.altNames ?? [])])];
  const cert = await x509.X509CertificateGenerator.createSelfSigned(
    {
      serialNumber: serial.toString('hex'),
      name: [{ CN: [options.commonName] }],
      notBefore: new Date(Date.now() - 24 * 3600_000), // tolerate camera clocks that run behind
      notAfter: new Date(Date.now() + (options.days ?? 3650) * 24 * 3600_000),
      signingAlgorithm: rsaSha256,
      keys: keys as CryptoKeyPair,
      extensions: [
        new x509.BasicConstraintsExtension(false, undefined, true), // not a CA
        new x509.KeyUsagesExtension(
          x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.keyEncipherment,
          true,
        ),
        new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
        new x509.SubjectAlternativeNameExtension(
          altNames.map((value) => ({ type: net.isIP(value) ? ('ip' as const) : ('dns' as const), value })),
        ),
      ],
    },
    webcrypto as unknown as Crypto,
  );
  return {
    cert: `${cert.toString('pem').replace(/\r\n/g, '\n').trimEnd()}\n`,
    key: toPem('PRIVATE KEY', await webcrypto.subtle.exportKey('pkcs8', keys.privateKey)),
  };
}
