import type { Attributes, FileEntry } from 'ssh2';
import type { IngestStat } from './backend.ts';
import type { UploadSink } from './upload-sink.ts';

// The handles an SFTP session hands out (an upload in progress, a listed folder) and how a file
// or folder looks to the client (sftp-requests.ts answers the requests with them).

const DIR_MODE = 0o040755;
const FILE_MODE = 0o100644;

export interface FileHandle {
  kind: 'file';
  path: string;
  sink: UploadSink;
  offset: number;
  pending: Map<number, Buffer>;
  pendingBytes: number;
  /** WRITE replies held back until the backend reads again (flow control). */
  held: number[];
  failed?: string;
  /** Fires when no data came for `stallMs` (issue 29): the upload is discarded, like FTP's 426. */
  stall?: NodeJS.Timeout;
}

export interface DirHandle {
  kind: 'dir';
  entries: FileEntry[];
  sent: boolean;
}

export function toAttrs(s: IngestStat): Attributes {
  const time = Math.floor(s.mtime.getTime() / 1000);
  return {
    mode: s.isDirectory ? DIR_MODE : FILE_MODE,
    uid: 0,
    gid: 0,
    size: s.isDirectory ? 0 : s.size,
    atime: time,
    mtime: time,
  };
}

export const ROOT_STAT: IngestStat = { size: 0, mtime: new Date(0), isDirectory: true };
