// The calendar reader's worker thread: parses one feed and expands its series (ical.js), posting
// the occurrences in batches. A hostile or huge feed costs only this thread, which the host ends
// at its deadline or memory limit (read-in-thread.ts); the server's event loop never waits on it.
import { parentPort, workerData } from 'node:worker_threads';
import { type IcsEvent, IcsLimitError, IcsParseError, readIcs } from './parse.ts';
import type { ReadReply, ReadRequest } from './read-protocol.ts';

const port = parentPort;
if (!port) throw new Error('read-thread runs as a worker thread only');
const request = workerData as ReadRequest;
const post = (reply: ReadReply) => port.postMessage(reply);

try {
  const reader = readIcs(request.text, {
    from: new Date(request.from),
    to: new Date(request.to),
    defaultZone: request.defaultZone,
    maxEvents: request.maxEvents,
    maxSteps: request.maxSteps,
    refuseOverMaxEvents: request.refuseOverMaxEvents,
  });
  post({ type: 'head', name: reader.name });
  let batch: IcsEvent[] = [];
  for (const event of reader.events) {
    batch.push(event);
    if (batch.length >= request.batchSize) {
      post({ type: 'batch', events: batch });
      batch = [];
    }
  }
  if (batch.length > 0) post({ type: 'batch', events: batch });
  post({ type: 'done', skipped: reader.skipped, truncated: reader.truncated });
} catch (error) {
  post({
    type: 'error',
    reason: error instanceof IcsLimitError ? error.reason : null,
    parse: error instanceof IcsParseError,
    message: error instanceof Error ? error.message : String(error),
  });
}
