// Opens the embedded database under argv[2], prints its process id and waits to be killed
// (embedded-database.int.test.ts kills this process with SIGKILL).
import fs from 'node:fs';
import path from 'node:path';
import { startEmbeddedDatabase } from '../../src/db/embedded-database.ts';

const dir = process.argv[2] ?? '';
const db = await startEmbeddedDatabase(dir);
await db.query('select 1', []);
console.log(fs.readFileSync(path.join(dir, 'photorelay-host.pid'), 'utf8'));
setInterval(() => {}, 1000);
