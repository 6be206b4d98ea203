// Helpers of the metadata integration tests (not imported by the server).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import type { TestClient } from './client.ts';
import { rootFolder } from './factories.ts';
import type { TestServer } from './server.ts';

/** The shared sample images beside the repository (/work/shared/data/images). */
export const imagesDir = path.resolve(import.meta.dirname, '../../../../../shared/data/images');
export const readImage = (name: string) => fs.readFileSync(path.join(imagesDir, name));
export const dataUrl = (bytes: Buffer, type = 'image/jpeg') =>
  `data:${type};base64,${bytes.toString('base64')}`;

export async function createProject(
  server: TestServer,
  team: { teamId: number; teamUuid: string; owner: { client: TestClient } },
  name = 'Spieltag',
) {
  const projectsRoot = await rootFolder(server, team, 'projects');
  const res = await team.owner.client.post<{ result: string; projectId: number }>(
    `/api/${team.teamUuid}/project`,
    {
      name,
      parentFolderId: projectsRoot.id,
    },
  );
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.projectId;
}

/** A JPEG whose XMP names a camera body serial (for {photographer}): an APP1 XMP segment after SOI. */
export function withCameraSerial(jpeg: Buffer, serial: string): Buffer {
  const xmp = `<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description rdf:about="" xmlns:aux="http://ns.adobe.com/exif/1.0/aux/" aux:SerialNumber="${serial}"/></rdf:RDF></x:xmpmeta>`;
  const payload = Buffer.concat([
    Buffer.from('http://ns.adobe.com/xap/1.0/\0', 'latin1'),
    Buffer.from(xmp, 'utf8'),
  ]);
  const header = Buffer.from([0xff, 0xe1, 0, 0]);
  header.writeUInt16BE(payload.length + 2, 2);
  return Buffer.concat([jpeg.subarray(0, 2), header, payload, jpeg.subarray(2)]);
}

/** The project's uploads by file name once `count` of them are processed (the worker woken meanwhile). */
export async function processedUploads(server: TestServer, projectId: number, count: number) {
  const db = server.running.ctx.db;
  for (let i = 0; i < 400; i++) {
    const rows = await db
      .selectFrom('uploads')
      .select([
        'filename',
        'state',
        'blob_key',
        'processed_blob_key',
        'sha256',
        'processed_sha256',
        'processing_detail',
      ])
      .where('project_id', '=', projectId)
      .orderBy('id')
      .execute();
    if (rows.length === count && rows.every((r) => r.state === 'processed'))
      return new Map(rows.map((r) => [r.filename, r]));
    server.running.ctx.wake.pipeline();
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('uploads were not processed');
}
