import type { IcsEvent, IcsLimitReason } from './parse.ts';

/** What the host hands the reader thread (as workerData): the feed and how to read it. */
export interface ReadRequest {
  text: string;
  /** The import range as epoch milliseconds. */
  from: number;
  to: number;
  defaultZone: string;
  maxEvents: number;
  maxSteps: number;
  refuseOverMaxEvents: boolean;
  batchSize: number;
}

export type ReadReply =
  | { type: 'head'; name: string | null }
  | { type: 'batch'; events: IcsEvent[] }
  | { type: 'done'; skipped: number; truncated: boolean }
  | { type: 'error'; reason: IcsLimitReason | null; parse: boolean; message: string };
