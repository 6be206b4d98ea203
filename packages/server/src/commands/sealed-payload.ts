import { decryptSecret, encryptSecret } from '../crypto/secrets.ts';

// A command's payload may hold a password (testftpserver) or other secrets: it is stored
// encrypted as a whole (AES-256-GCM, the key of every secret at rest), so no command needs to
// name its secret fields, and the row is cleared once the command has finished.
interface Sealed {
  sealed: string;
}

export const sealPayload = (key: Buffer, payload: unknown): Sealed => ({
  sealed: encryptSecret(key, JSON.stringify(payload ?? null)),
});

/** The payload as the route stored it; rows written before payloads were sealed pass as they are. */
export function unsealPayload(key: Buffer, stored: unknown): unknown {
  if (stored === null || typeof stored !== 'object' || !('sealed' in stored)) return stored;
  const { sealed } = stored as Sealed;
  return typeof sealed === 'string' ? JSON.parse(decryptSecret(key, sealed)) : stored;
}
