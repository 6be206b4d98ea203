import fs from 'node:fs';
import path from 'node:path';

/**
 * The release: the repository's package.json "version" (CHANGELOG.md says what changed), found
 * upwards from this code, which runs from packages/server/src or from the bundle in dist.
 */
export function releaseVersion(): string {
  for (let dir = import.meta.dirname; dir !== path.dirname(dir); dir = path.dirname(dir)) {
    const file = path.join(dir, 'package.json');
    if (!fs.existsSync(file)) continue;
    const pkg = JSON.parse(fs.readFileSync(file, 'utf8')) as { version?: string; workspaces?: unknown };
    if (pkg.workspaces) return pkg.version ?? 'unknown';
  }
  return 'unknown';
}
