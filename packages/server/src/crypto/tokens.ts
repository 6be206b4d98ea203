import crypto from 'node:crypto';
import { AppError } from '@photorelay/contract/errors';
import { passwordHashGate } from './hash-gate.ts';
import { HashWorker } from './hash-worker.ts';

export const randomToken = (bytes = 32) => crypto.randomBytes(bytes).toString('base64url');
export const sha256 = (value: string) => crypto.createHash('sha256').update(value).digest('hex');

/** Compares a presented token with a stored hash without leaking timing. */
export function tokenMatches(presented: string, storedHash: string): boolean {
  const a = Buffer.from(sha256(presented), 'hex');
  const b = Buffer.from(storedHash, 'hex');
  return a.length === b.length && crypto.timingSafeEqual(a, b);
}

const argon2 = new HashWorker();

// argon2id with the library's defaults (m=19 MiB, t=2, p=1: OWASP's recommendation), one at a
// time on a low-priority thread of its own, so a login flood cannot starve the ingest.
export const hashPassword = (password: string) => passwordHashGate.run(() => argon2.hash(password));

// A hash of a random password with the same parameters: an unknown address (or an account
// without a password) costs the same verify as a wrong password, so timing tells nothing.
const dummyHash =
  '$argon2id$v=19$m=19456,t=2,p=1$cSX8llQMMTS4s6IC8SGgcg$Ayn3pcVHZoJ8ruyuwEdTgs7OX4j151+DWlT7sUXQ/SU';

/** Always runs one verify, also for a missing hash, so known and unknown accounts answer alike. */
export async function passwordMatches(storedHash: string | undefined, password: string): Promise<boolean> {
  const known = Boolean(storedHash);
  try {
    const matches = await passwordHashGate.run(() => argon2.verify(storedHash || dummyHash, password));
    return known && matches;
  } catch (error) {
    if (error instanceof AppError) throw error; // the gate's TooManyRequests
    return false;
  }
}

/** Spends the time of one verify without a result: the unknown-address side of a timed answer. */
export const spendVerifyTime = (password: string) => passwordMatches(undefined, password);
