// Messages between the server and its picture scaler process (picture-scaler-process.ts).

export interface ScaleRequest {
  id: number;
  file: string;
  /** The longest edge of the result (pixels); smaller pictures are not enlarged. */
  edge: number;
  quality: number;
  /** What decoding may hold at most (bytes), judged from the header before decoding. */
  decodeBytes: number;
}

/** Sent once when the process has loaded sharp: deadlines count from here, not from node's start. */
export interface ScalerReady {
  kind: 'ready';
}

export type ScaleReply =
  | { id: number; kind: 'done'; bytes: Uint8Array }
  /** The header claims more than the budget: not decoded. */
  | { id: number; kind: 'refused'; reason: string }
  /** No picture sharp can read. */
  | { id: number; kind: 'unreadable'; reason: string };
