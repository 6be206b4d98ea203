// Moving a file's image data by the kernel: Linux's copy_file_range(2) from an offset of one file
// to the current position of another, called through koffi (an FFI with prebuilt binaries, no
// build step). Node has no offset-aware copy_file_range (fs.copyFile copies whole files only). The
// data never passes through user space: a 5 MB stamp costs about what fs.copyFile costs for the
// copy instead of a read and a write per block (issue 15, bench/README.md "Stamping, session 10").
// Synchronous: for a stamp thread, never the caller's event loop.
import { createRequire } from 'node:module';
import { constants } from 'node:os';

/** copy_file_range(fd_in, &off_in, fd_out, NULL, len, 0) */
type CopyFileRange = (
  input: number,
  from: [number],
  output: number,
  to: null,
  length: number,
  flags: 0,
) => number;

interface Koffi {
  load(path: string): { func(signature: string): unknown };
  errno(): number;
}

const { EINTR, EXDEV, EINVAL, ENOSYS, EOPNOTSUPP } = constants.errno;
/** The kernel cannot copy between these two files (other file systems, pipes, old kernels): copy in user space. */
const UNSUPPORTED = new Set([EXDEV, EINVAL, ENOSYS, EOPNOTSUPP]);

const errnoNames = new Map(Object.entries(constants.errno).map(([name, value]) => [value, name]));

let loaded: { copy: CopyFileRange; errno: () => number } | null | undefined;

/** The libc call, once per thread; null where there is none (other OSes, koffi missing). */
function copyFunction(): typeof loaded {
  if (loaded !== undefined) return loaded;
  loaded = null;
  if (process.platform !== 'linux') return loaded;
  try {
    // Loaded at run time (the server bundle keeps it out, like every npm package).
    const koffi = createRequire(import.meta.url)('koffi') as Koffi;
    const copy = koffi
      .load('libc.so.6')
      .func(
        'intptr_t copy_file_range(int, _Inout_ int64_t *, int, _Inout_ int64_t *, size_t, unsigned int)',
      ) as CopyFileRange;
    loaded = { copy, errno: () => koffi.errno() };
  } catch {}
  return loaded;
}

/** Whether this process can move data by the kernel (Linux with koffi); a file system may still refuse. */
export const kernelCopyAvailable = (): boolean => copyFunction() !== null;

/**
 * Copies `length` bytes from `input` at `from` to `output` at its current position (which moves
 * on), fewer when the input ends first. Returns the bytes copied, or undefined when the kernel
 * cannot copy between these files and nothing was copied: the caller copies in user space.
 */
export function copyRange(input: number, from: number, output: number, length: number): number | undefined {
  const call = copyFunction();
  if (!call) return undefined;
  const offset: [number] = [from];
  let done = 0;
  while (done < length) {
    const n = call.copy(input, offset, output, null, length - done, 0);
    if (n === 0) break; // the input ended
    if (n > 0) {
      done += n;
      continue;
    }
    const errno = call.errno();
    if (errno === EINTR) continue;
    if (done === 0 && UNSUPPORTED.has(errno)) return undefined;
    // Named as Node names errors (ENOSPC, EIO, ...), so callers and logs read it like any I/O error.
    const code = errnoNames.get(errno) ?? `errno ${errno}`;
    throw Object.assign(new Error(`${code}: copy_file_range failed after ${done} bytes`), { code, errno });
  }
  return done;
}
