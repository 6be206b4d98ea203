// Issue 28: one plain line for why a delivery failed. The patterns are the texts our FTP/SFTP
// clients and the script runner actually throw (see the int tests); anything else is 'other'
// and the web shows the raw text behind Details as before.
import type { FailureCause } from '@photorelay/contract/jobs';

type Code = FailureCause['code'];

const destinationPatterns: Array<[RegExp, Code]> = [
  [/^The (FTP server|destination project) was (deleted|removed from the project)$/, 'destinationGone'],
  [/^Folder .+ could not be created/, 'folderNotCreated'],
  [/\b530\b|login incorrect|authentication|auth fail|wrong user name or password/i, 'loginRefused'],
  [/ECONNREFUSED/, 'refused'],
  [/ENOTFOUND|EAI_AGAIN|getaddrinfo/, 'unknownHost'],
  [/ETIMEDOUT|timed? ?out/i, 'timeout'],
  [/ECONNRESET|EPIPE|socket hang up|closed by the server/i, 'connectionLost'],
  [/private (network|address)/i, 'privateNetwork'],
  [/certificate|self[- ]signed|\bTLS\b|\bSSL\b/i, 'tls'],
  [/\b55[0-3]\b|permission denied|no such file/i, 'noPermission'],
];

/** "Script error: caption.script 2:5: boom" -> script, line and message. */
const scriptError = /^Script error: (?:(\S+) (\d+):\d+: )?([\s\S]*)$/;

/**
 * The plain cause of a failed or retrying delivery. `destination` is the name the sentence
 * uses ("Login refused by Client FTP (530)").
 */
export function causeOf(raw: string, destination: string): FailureCause {
  const script = scriptError.exec(raw);
  if (script)
    return {
      code: 'script',
      scope: 'picture',
      values: {
        script: script[1] ?? '',
        line: script[2] ?? '',
        message: (script[3] ?? '').split('\n')[0]?.slice(0, 200) ?? '',
      },
      raw,
    };
  const code = destinationPatterns.find(([pattern]) => pattern.test(raw))?.[1] ?? 'other';
  const values: Record<string, string> = { destination };
  if (code === 'loginRefused') values.reply = /\b(5\d\d)\b/.exec(raw)?.[1] ?? '';
  if (code === 'folderNotCreated') values.folder = /^Folder (.+?) could not be created/.exec(raw)?.[1] ?? '';
  return { code, scope: 'destination', values, raw };
}
