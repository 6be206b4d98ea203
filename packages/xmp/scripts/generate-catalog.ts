// Generates src/catalog-data.json from the IPTC Photo Metadata TechReference.
//   npx tsx packages/xmp/scripts/generate-catalog.ts [path/to/shared/data/iptc]
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildCatalogData, catalogJson } from './catalog-builder.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const dataDir = path.resolve(process.argv[2] ?? path.resolve(here, '../../../../shared/data/iptc'));
const data = buildCatalogData(dataDir);
const target = path.resolve(here, '../src/catalog-data.json');
writeFileSync(target, catalogJson(data));
console.log(`wrote ${data.properties.length} properties to ${path.relative(process.cwd(), target)}`);
