import fs from 'node:fs';
import type { Logger } from 'pino';

// Issue 30 item 6: with the data disk full, health said `ok`, the dashboard said nothing and
// only the camera learned of it (a failed STOR). This watcher knows it, from two signals:
// free space under a floor (statfs, read on a timer, never per request), and a write that
// failed for lack of space (ENOSPC/EDQUOT), which a quota or used-up inodes may cause while
// statfs still shows room. Both clear by themselves once space returns.

export interface DataDiskState {
  full: boolean;
  /** Bytes free to this process on the file system of the blobs; null when statfs failed. */
  freeBytes: number | null;
  /** Why it counts as full: free space under the floor, or a write that failed for lack of space. */
  reason: 'low space' | 'write failed' | null;
}

export interface DataDisk {
  /** The last known state: answered from memory, so probes and STOR may ask it every time. */
  state(): DataDiskState;
  /** A write failed with ENOSPC/EDQUOT: full at once (and the disk read again now). */
  noteWriteFailed(): void;
  /** A write of the blob store succeeded: an earlier failure is over. */
  noteWriteSucceeded(): void;
  /** Reads the file system now (tests, start-up). */
  check(): Promise<DataDiskState>;
  stop(): void;
}

export interface DataDiskOptions {
  /** A folder on the file system to watch (the blob store's root). */
  path: string;
  /** Under this many free bytes the disk counts as full. */
  minFreeBytes: number;
  /** How often the file system is read. */
  checkMs: number;
  /** How long a failed write keeps the disk 'full' when nothing says space returned (default a minute). */
  writeFailureMs?: number;
  log: Logger;
}

export function watchDataDisk(options: DataDiskOptions): DataDisk {
  const writeFailureMs = options.writeFailureMs ?? 60_000;
  let freeBytes: number | null = null;
  let noInodesLeft = false;
  // The last failed write, and the free bytes first read after it: more than that means space came back.
  let failed: { at: number; freeThen: number | null } | null = null;
  let wasFull = false;

  const state = (): DataDiskState => {
    if (failed && Date.now() - failed.at >= writeFailureMs) failed = null;
    const low = (freeBytes !== null && freeBytes < options.minFreeBytes) || noInodesLeft;
    const reason = low ? 'low space' : failed ? 'write failed' : null;
    return { full: reason !== null, freeBytes, reason };
  };

  const logChange = () => {
    const now = state();
    if (now.full === wasFull) return;
    wasFull = now.full;
    if (now.full)
      options.log.error(
        { path: options.path, freeBytes: now.freeBytes, reason: now.reason },
        'data disk full: uploads are refused until there is space',
      );
    else options.log.info({ path: options.path, freeBytes: now.freeBytes }, 'data disk has space again');
  };

  let reading: Promise<DataDiskState> | null = null;
  const check = () => {
    reading ??= fs.promises
      .statfs(options.path)
      .then(
        (s) => {
          freeBytes = s.bavail * s.bsize;
          // Some file systems (btrfs, tmpfs with nr_inodes=0) report no inode count at all.
          noInodesLeft = s.files > 0 && s.ffree === 0;
          if (failed) {
            if (failed.freeThen === null) failed.freeThen = freeBytes;
            else if (freeBytes > failed.freeThen && freeBytes >= options.minFreeBytes) failed = null;
          }
        },
        (err: unknown) => {
          freeBytes = null;
          noInodesLeft = false;
          options.log.warn({ err, path: options.path }, 'free space of the data disk could not be read');
        },
      )
      .then(() => {
        reading = null;
        logChange();
        return state();
      });
    return reading;
  };

  const timer = setInterval(() => void check(), options.checkMs);
  timer.unref();

  return {
    state,
    noteWriteFailed() {
      failed = { at: Date.now(), freeThen: null };
      logChange();
      // A read already under way may predate the failure: the next one sets freeThen.
      void (reading ?? Promise.resolve()).then(check);
    },
    noteWriteSucceeded() {
      if (!failed) return;
      failed = null;
      logChange();
    },
    check,
    stop: () => clearInterval(timer),
  };
}
