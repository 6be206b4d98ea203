import { assertAllowedHost } from '../net/outbound-guard.ts';
import type { DestinationClient, DestinationSettings } from './destination.ts';
import { connectFtp } from './ftp-client.ts';
import { connectSftp } from './sftp-client.ts';

/** Checks the host against ALLOW_PRIVATE_NETWORKS, connects and logs in. Errors carry the server's text. */
export async function createDestinationClient(settings: DestinationSettings): Promise<DestinationClient> {
  const address = await assertAllowedHost(settings.host, {
    allowPrivateNetworks: settings.allowPrivateNetworks,
  });
  return settings.protocol === 'sftp' ? connectSftp(settings, address) : connectFtp(settings, address);
}
