import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { makeMember, makeTeam } from '../../../test/support/factories.ts';
import { startTestServer, type TestServer } from '../../../test/support/server.ts';

let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(() => server.stop());

const dataUrl = (text: string | Buffer, type = 'application/json') =>
  `data:${type};base64,${Buffer.from(text).toString('base64')}`;
type FileRow = { dbconfigfileid: number; name: string; size: number; time: string };

test('upload, replace by name, download, read by name and delete', async () => {
  const team = await makeTeam(server);
  const base = `/api/${team.teamUuid}`;
  const c = team.owner.client;
  const initial = await c.get<{ files: FileRow[] }>(`${base}/files`);
  assert.deepEqual(
    initial.body.files.map((f) => f.name),
    ['news.json', 'sport.json'],
  );

  const codes = JSON.stringify({ gb12: 'Gareth Bale' });
  const up = await c.post<{ result: string; dbconfigfileid: number; size: number }>(`${base}/file`, {
    name: 'codes.JSON',
    content: dataUrl(codes),
  });
  assert.deepEqual([up.body.result, up.body.size], ['OK', Buffer.byteLength(codes)]);
  const again = await c.post<{ dbconfigfileid: number }>(`${base}/file`, {
    name: 'codes.JSON',
    content: dataUrl('{"gb12":"G. Bale"}'),
  });
  assert.equal(again.body.dbconfigfileid, up.body.dbconfigfileid, 'same name replaces');

  const xmp =
    '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"/></x:xmpmeta>';
  assert.equal(
    (
      await c.post(`${base}/file`, {
        name: 'template.xmp',
        content: dataUrl(xmp, 'application/octet-stream'),
      })
    ).status,
    200,
  );

  const download = await fetch(`${server.url}${base}/downloadfile/${up.body.dbconfigfileid}`, {
    headers: { cookie: `pr_session=${c.cookie('pr_session')}` },
  });
  assert.equal(download.status, 200);
  assert.match(download.headers.get('content-disposition') ?? '', /^attachment; filename="codes.JSON"/);
  assert.equal(await download.text(), '{"gb12":"G. Bale"}');

  const photographer = await makeMember(server, team, 'Photographer');
  const sport = await photographer.client.get<{ file: { content: string; text: string } }>(
    `${base}/file/sport.json`,
  );
  assert.equal(sport.status, 200);
  assert.equal(JSON.parse(sport.body.file.text).category, 'sport');
  assert.match(sport.body.file.content, /^data:application\/json;base64,/);
  assert.equal((await photographer.client.get(`${base}/files`)).status, 403);
  assert.equal(
    (await photographer.client.post(`${base}/file`, { name: 'x.json', content: dataUrl('{}') })).status,
    403,
  );

  assert.equal((await c.del(`${base}/file/${up.body.dbconfigfileid}`)).status, 200);
  assert.equal((await c.del(`${base}/file/${up.body.dbconfigfileid}`)).status, 404);
  const list = await c.get<{ files: FileRow[] }>(`${base}/files`);
  assert.deepEqual(
    list.body.files.map((f) => f.name),
    ['news.json', 'sport.json', 'template.xmp'],
  );
});

test('wrong type, oversize, broken JSON, DOCTYPE XMP and foreign ids are refused', async () => {
  const team = await makeTeam(server);
  const other = await makeTeam(server);
  const base = `/api/${team.teamUuid}`;
  const c = team.owner.client;
  const cases: Array<[string, unknown, number]> = [
    ['exe', { name: 'virus.exe', content: dataUrl('{}') }, 400],
    ['no ext', { name: 'json', content: dataUrl('{}') }, 400],
    ['path', { name: '../x.json', content: dataUrl('{}') }, 400],
    ['100000 bytes', { name: 'big.json', content: dataUrl(`"${'a'.repeat(99_998)}"`) }, 413],
    ['broken json', { name: 'b.json', content: dataUrl('{"a":') }, 400],
    ['doctype', { name: 'e.xmp', content: dataUrl('<!DOCTYPE x [<!ENTITY a "b">]><x>&a;</x>') }, 400],
    ['not xml', { name: 'n.xmp', content: dataUrl('hello <') }, 400],
    ['not a data url', { name: 'a.json', content: '{}' }, 400],
    ['foreign id', { name: 'a.json', content: dataUrl('{}'), dbconfigfileid: 2_000_000 }, 404],
  ];
  for (const [label, body, status] of cases) {
    assert.equal((await c.post(`${base}/file`, body)).status, status, label);
  }
  const ok = await c.post(`${base}/file`, { name: 'edge.json', content: dataUrl(`"${'a'.repeat(99_997)}"`) });
  assert.equal(ok.status, 200, '99,999 bytes is under the limit');

  const theirs = await other.owner.client.get<{ files: FileRow[] }>(`/api/${other.teamUuid}/files`);
  const theirId = theirs.body.files[0].dbconfigfileid;
  assert.equal((await c.del(`${base}/file/${theirId}`)).status, 404);
  assert.equal((await c.get(`${base}/downloadfile/${theirId}`)).status, 404);
  assert.equal(
    (await c.post(`${base}/file`, { name: 'x.json', content: dataUrl('{}'), dbconfigfileid: theirId }))
      .status,
    404,
  );
  const still = await other.owner.client.get<{ files: FileRow[] }>(`/api/${other.teamUuid}/files`);
  assert.equal(still.body.files.length, 2);
});
