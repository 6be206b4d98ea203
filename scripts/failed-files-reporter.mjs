// A node:test reporter that appends each file with a failing test to the file named by
// PHOTORELAY_FAILED_FILES, so that scripts/test.mjs can run those files once more. It writes
// synchronously: --test-force-exit ends the process before a reporter stream would be flushed.
import fs from 'node:fs';

export default async function* failedFiles(source) {
  const seen = new Set();
  for await (const event of source) {
    const file = event.type === 'test:fail' ? event.data.file : undefined;
    if (file && !seen.has(file) && process.env.PHOTORELAY_FAILED_FILES) {
      seen.add(file);
      fs.appendFileSync(process.env.PHOTORELAY_FAILED_FILES, `${file}\n`);
    }
  }
  yield ''; // a reporter is a generator of output; this one has none
}
