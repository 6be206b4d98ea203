// The web app's rooms (issue 11): app/ is the composition root (router, layout, shell, theme);
// pages and the shared kit in ui/ build on ui/ and api/ and never reach back up into app/.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';

const src = import.meta.dirname;

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

/** The files under `room` whose relative imports resolve into app/. */
function importsIntoApp(room: string): string[] {
  const app = path.join(src, 'app') + path.sep;
  const found: string[] = [];
  for (const file of sourceFiles(path.join(src, room))) {
    const text = fs.readFileSync(file, 'utf8');
    for (const match of text.matchAll(/(?:from\s+|import\s*\(\s*|import\s+)['"](\.{1,2}\/[^'"]+)['"]/g)) {
      const target = path.resolve(path.dirname(file), match[1]);
      if (target.startsWith(app)) found.push(`${path.relative(src, file)} -> ${match[1]}`);
    }
  }
  return found;
}

describe('web app rooms', () => {
  it('pages never import from app/', () => {
    assert.deepEqual(importsIntoApp('pages'), []);
  });

  it('the shared kit in ui/ never imports from app/', () => {
    assert.deepEqual(importsIntoApp('ui'), []);
  });

  it('finds an import into app/ when there is one', () => {
    assert.ok(importsIntoApp('app/shell').includes('app/shell/footer.tsx -> ./legal-links.ts'));
  });
});
