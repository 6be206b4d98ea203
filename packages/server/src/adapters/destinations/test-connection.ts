import { createDestinationClient } from './connect.ts';
import type { DestinationSettings } from './destination.ts';

/**
 * The FTP server page's 'Test' command: connect, log in, enter the path (made when missing, as
 * the first delivery would), list it. Resolves with the spec's text 'Success!!!'; otherwise
 * throws an Error whose message is the server's own error text (e.g. '530 Login incorrect.',
 * 'Folder /in/2026 could not be created: 550 …') or the outbound guard's refusal. Never
 * pooled: a test must show whether a fresh login works.
 */
export async function testDestination(
  settings: DestinationSettings & { path?: string },
): Promise<'Success!!!'> {
  const client = await createDestinationClient(settings);
  try {
    await client.test(settings.path ?? '');
    return 'Success!!!';
  } finally {
    await client.close();
  }
}
