import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { XmpProperty } from '@photorelay/contract/metadata';
import { runCommand } from '../../../test/support/commands.ts';
import { grant, makeFolder, makeMember, makeTeam, rootFolder } from '../../../test/support/factories.ts';
import { createProject, dataUrl, imagesDir } from '../../../test/support/metadata.ts';
import { startTestServer, type TestServer } from '../../../test/support/server.ts';

let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(() => server.stop());

interface Values {
  xmpmodes: Array<{ propertytypeid: string; mode: string }>;
  xmpvalues: Array<{ propertytypeids: string; value: string; position?: number; lang?: string }>;
}

const sidecarPath = path.resolve(imagesDir, '../xmp/IPTC-PhotometadataRef-Std2025.1.extracted.xmp');

describe('catalog', () => {
  test('GET xmpproperties gives every property with texts in en and de, fields, category, modes and IIM limit', async () => {
    const team = await makeTeam(server);
    const photographer = await makeMember(server, team, 'Photographer');
    const res = await photographer.client.get<{ xmpproperties: XmpProperty[] }>(
      `/api/${team.teamUuid}/xmpproperties`,
    );
    assert.equal(res.status, 200);
    const list = res.body.xmpproperties;
    assert.ok(list.length >= 60, `${list.length} properties`);
    const byId = new Map(list.map((p) => [p.id, p]));
    const headline = byId.get('headline');
    assert.deepEqual(
      [
        headline?.type,
        headline?.xmpName,
        headline?.title.en,
        headline?.title.de,
        headline?.uiCategory,
        headline?.iimMaxBytes,
      ],
      ['simple', 'photoshop:Headline', 'Headline', 'Überschrift', 0, 256],
    );
    assert.ok(headline?.desc.en && headline.desc.de);
    assert.deepEqual(headline?.modes, ['off', 'replace', 'append', 'prepend']);
    assert.deepEqual(byId.get('keywords')?.modes, ['off', 'replace', 'merge']);
    assert.deepEqual(byId.get('description')?.vars, ['caption', 'description']);
    const location = byId.get('locationCreated');
    assert.equal(location?.arrayOfStructures, true);
    assert.deepEqual(location?.modes, ['off', 'replace']);
    assert.ok(location?.fields?.some((f) => f.id === 'city' && f.type === 'simple'));
    assert.ok(
      byId.get('imageRegion')?.fields?.some((f) => f.fields?.some((g) => g.id === 'rbVertices')),
      'nested fields',
    );
    assert.ok(list.every((p) => p.uiCategory >= 0 && p.uiCategory <= 4));
    assert.equal(byId.get('creatorContactInfo')?.iimMaxBytes, null);
  });
});

describe('values and modes', () => {
  test('set, list, replace and delete values of every shape, and modes', async () => {
    const team = await makeTeam(server);
    const { client } = team.owner;
    const id = await createProject(server, team);
    const base = `/api/${team.teamUuid}/project/${id}`;
    const ok = async (method: 'put' | 'post' | 'del', url: string, body?: unknown) => {
      const res = await client[method]<{ result: string; warnings?: string[] }>(`${base}${url}`, body);
      assert.equal(res.status, 200, `${method} ${url}: ${JSON.stringify(res.body)}`);
      return res.body;
    };

    assert.deepEqual((await ok('put', '/xmpvalue/headline', { value: 'Bayern – Dortmund' })).warnings, []);
    await ok('put', '/xmpvalue/headline', { value: 'Bayern München – Borussia Dortmund' }); // replaces
    await ok('put', '/xmpvalue/description', { value: 'Caption {city}' });
    await ok('put', '/xmpvalue/description/lang/de', { value: 'Bildunterschrift' });
    await ok('post', '/xmpvalue/title/lang/en-gb', { value: 'Title' });
    await ok('put', '/xmpvalue/keywords/position/0', { value: 'Fußball' });
    await ok('put', '/xmpvalue/keywords/position/1', { value: 'Bundesliga' });
    await ok('post', '/xmpvalue/locationCreated/position/0', {
      properties: [
        { id: 'city', value: 'München' },
        { id: 'countryCode', value: 'DE' },
        { id: 'name', value: 'Allianz Arena' },
      ],
    });
    await ok('put', '/xmpvalue/locationCreated,identifiers[1]/position/1', {
      value: 'https://example.com/loc',
    });
    await ok('put', '/xmpvalue/creatorContactInfo,city', { value: 'Berlin' });
    for (const [property, mode] of [
      ['headline', 'replace'],
      ['description', 'append'],
      ['keywords', 'merge'],
      ['locationCreated', 'replace'],
      ['creatorContactInfo', 'merge'],
      ['title', 'off'],
    ]) {
      await ok('put', `/xmpvaluemode/${property}/mode/${mode}`);
    }
    await ok('put', '/xmpvaluemode/title/mode/prepend'); // a mode is replaced

    const listed = await client.get<Values>(`${base}/xmpvalues`);
    assert.equal(listed.status, 200);
    assert.deepEqual(listed.body.xmpmodes, [
      { propertytypeid: 'creatorContactInfo', mode: 'merge' },
      { propertytypeid: 'description', mode: 'append' },
      { propertytypeid: 'headline', mode: 'replace' },
      { propertytypeid: 'keywords', mode: 'merge' },
      { propertytypeid: 'locationCreated', mode: 'replace' },
      { propertytypeid: 'title', mode: 'prepend' },
    ]);
    assert.deepEqual(listed.body.xmpvalues, [
      { propertytypeids: 'creatorContactInfo,city', value: 'Berlin', position: 0, lang: 'x-default' },
      { propertytypeids: 'description', value: 'Bildunterschrift', position: 0, lang: 'de' },
      { propertytypeids: 'description', value: 'Caption {city}', position: 0, lang: 'x-default' },
      {
        propertytypeids: 'headline',
        value: 'Bayern München – Borussia Dortmund',
        position: 0,
        lang: 'x-default',
      },
      { propertytypeids: 'keywords', value: 'Fußball', position: 0, lang: 'x-default' },
      { propertytypeids: 'keywords', value: 'Bundesliga', position: 1, lang: 'x-default' },
      { propertytypeids: 'locationCreated,city', value: 'München', position: 0, lang: 'x-default' },
      { propertytypeids: 'locationCreated,countryCode', value: 'DE', position: 0, lang: 'x-default' },
      {
        propertytypeids: 'locationCreated,identifiers[1]',
        value: 'https://example.com/loc',
        position: 1,
        lang: 'x-default',
      },
      { propertytypeids: 'locationCreated,name', value: 'Allianz Arena', position: 0, lang: 'x-default' },
      { propertytypeids: 'title', value: 'Title', position: 0, lang: 'en-GB' },
    ]);

    // A structure item is replaced as a whole; deleting by position, language or id.
    await ok('post', '/xmpvalue/locationCreated/position/0', {
      properties: [
        { id: 'city', value: 'Dortmond' },
        { id: 'city', value: 'Dortmund' }, // the last of the same field wins
      ],
    });
    await ok('del', '/xmpvalue/keywords/position/1');
    await ok('del', '/xmpvalue/description/lang/de');
    await ok('del', '/xmpvalue/creatorContactInfo');
    await ok('del', '/xmpvalue/title/lang/EN-gb');
    const after1 = (await client.get<Values>(`${base}/xmpvalues`)).body.xmpvalues.map(
      (v) => `${v.propertytypeids}@${v.position}/${v.lang}=${v.value}`,
    );
    assert.deepEqual(after1, [
      'description@0/x-default=Caption {city}',
      'headline@0/x-default=Bayern München – Borussia Dortmund',
      'keywords@0/x-default=Fußball',
      'locationCreated,city@0/x-default=Dortmund',
      'locationCreated,identifiers[1]@1/x-default=https://example.com/loc',
    ]);
    await ok('del', '/xmpvalue/locationCreated/position/1');
    await ok('del', '/xmpvalue/headline');
    await ok('del', '/xmpvalue/headline'); // deleting what is gone is fine
    assert.deepEqual(
      (await client.get<Values>(`${base}/xmpvalues`)).body.xmpvalues.map((v) => v.propertytypeids),
      ['description', 'keywords', 'locationCreated,city'],
    );

    // A value longer than its IPTC-IIM dataset is kept, with a warning.
    const long = await ok('put', '/xmpvalue/headline', { value: 'x'.repeat(300) });
    assert.match(long.warnings?.[0] ?? '', /IPTC-IIM Headline \(2:105\) holds 256 bytes/);

    await ok('del', '/xmpvalues');
    assert.deepEqual((await client.get<Values>(`${base}/xmpvalues`)).body, { xmpmodes: [], xmpvalues: [] });
  });

  test('bad input is refused and changes nothing', async () => {
    const team = await makeTeam(server);
    const { client } = team.owner;
    const id = await createProject(server, team);
    const base = `/api/${team.teamUuid}/project/${id}`;
    const refused = async (method: 'put' | 'post' | 'del', url: string, body: unknown, pattern?: RegExp) => {
      const res = await client[method]<{ error: string; message?: string }>(`${base}${url}`, body);
      assert.deepEqual(
        [res.status, res.body.error],
        [400, 'ValidationError'],
        `${method} ${url}: ${JSON.stringify(res.body)}`,
      );
      if (pattern) assert.match(res.body.message ?? '', pattern, url);
    };
    await refused('put', '/xmpvalue/headline', { value: 'x'.repeat(1025) });
    await refused('put', '/xmpvalue/headline', {});
    await refused('put', '/xmpvalue/headline', { value: 42 });
    await refused('put', '/xmpvalue/nosuchproperty', { value: 'x' }, /Unknown property nosuchproperty/);
    await refused(
      'put',
      '/xmpvalue/locationCreated,nosuchfield/position/0',
      { value: 'x' },
      /Unknown property/,
    );
    await refused('put', '/xmpvalue/headline;drop table', { value: 'x' });
    await refused('put', '/xmpvalue/locationCreated', { value: 'x' }, /structure/);
    await refused('put', '/xmpvalue/headline/position/2', { value: 'x' }, /no item positions/);
    await refused('put', '/xmpvalue/keywords/position/1000', { value: 'x' });
    await refused('put', '/xmpvalue/headline/lang/de', { value: 'x' }, /not a language alternative/);
    await refused(
      'put',
      '/xmpvalue/locationCreated,city/lang/de',
      { value: 'x' },
      /not a language alternative/,
    );
    await refused('put', '/xmpvalue/description/lang/de_DE', { value: 'x' });
    await refused('put', '/xmpvalue/description/lang/not-a-language-tag-at-all', { value: 'x' });
    await refused('post', '/xmpvalue/headline/lang/de', { value: 'x' }, /not a language alternative/);
    await refused(
      'post',
      '/xmpvalue/headline/position/0',
      { properties: [{ id: 'city', value: 'x' }] },
      /not an array of structures/,
    );
    await refused(
      'post',
      '/xmpvalue/locationCreated/position/0',
      { properties: [{ id: 'nosuch', value: 'x' }] },
      /Unknown property/,
    );
    await refused(
      'post',
      '/xmpvalue/locationCreated/position/0',
      { properties: [{ id: 'gpsLatitude', value: 'north' }] },
      /number/,
    );
    await refused('put', '/xmpvalue/dateCreated', { value: 'yesterday' }, /date/);
    await refused('put', '/xmpvalue/maxAvailWidth', { value: '12.5' }, /whole number/);
    await refused('put', '/xmpvaluemode/keywords/mode/append', {}, /not allowed/);
    await refused('put', '/xmpvaluemode/headline/mode/merge', {}, /not allowed/);
    await refused('put', '/xmpvaluemode/locationCreated/mode/merge', {}, /not allowed/);
    await refused('put', '/xmpvaluemode/headline/mode/bogus', {});
    await refused('put', '/xmpvaluemode/nosuchproperty/mode/replace', {}, /Unknown property/);
    await refused('del', '/xmpvalue/nosuchproperty', {}, /Unknown property/);
    // Variables and codes are resolved per picture, so they pass format checks.
    assert.equal((await client.put(`${base}/xmpvalue/dateCreated`, { value: '{datetime}' })).status, 200);
    assert.equal((await client.put(`${base}/xmpvalue/headline`, { value: 'ä'.repeat(1024) })).status, 200);
    const values = (await client.get<Values>(`${base}/xmpvalues`)).body;
    assert.deepEqual(values.xmpmodes, []);
    assert.deepEqual(
      values.xmpvalues.map((v) => v.propertytypeids),
      ['dateCreated', 'headline'],
    );
    assert.equal((await client.get(`/api/${team.teamUuid}/project/999999999/xmpvalues`)).status, 404);
  });

  test('reads need read, writes need write on the project folder; another team gets 404', async () => {
    const team = await makeTeam(server);
    const projectsRoot = await rootFolder(server, team, 'projects');
    const folder = await makeFolder(server, team, projectsRoot.id, 'Liga');
    const created = await team.owner.client.post<{ projectId: number }>(`/api/${team.teamUuid}/project`, {
      name: 'Spieltag',
      parentFolderId: folder,
    });
    const id = created.body.projectId;
    const base = `/api/${team.teamUuid}/project/${id}`;
    await team.owner.client.put(`${base}/xmpvalue/headline`, { value: 'Headline' });

    const reader = await makeMember(server, team, 'Photographer');
    const writer = await makeMember(server, team, 'Photographer');
    const stranger = await makeMember(server, team, 'Photographer');
    await grant(server, team, folder, { userId: reader.userId }, ['read']);
    await grant(server, team, folder, { userId: writer.userId }, ['read', 'write']);
    const other = await makeTeam(server);

    const writes: Array<[string, string, unknown]> = [
      ['PUT', '/xmpvalue/headline', { value: 'x' }],
      ['PUT', '/xmpvalue/keywords/position/0', { value: 'x' }],
      ['PUT', '/xmpvalue/description/lang/de', { value: 'x' }],
      ['POST', '/xmpvalue/description/lang/de', { value: 'x' }],
      ['POST', '/xmpvalue/locationCreated/position/0', { properties: [{ id: 'city', value: 'x' }] }],
      ['PUT', '/xmpvaluemode/headline/mode/replace', {}],
      ['DELETE', '/xmpvalue/keywords/position/0', {}],
      ['DELETE', '/xmpvalue/description/lang/de', {}],
      ['DELETE', '/xmpvalue/locationCreated', {}],
      ['DELETE', '/xmpvalues', {}],
    ];
    for (const [method, url, body] of writes) {
      const label = `${method} ${url}`;
      const foreign = await other.owner.client.request(
        method,
        `/api/${other.teamUuid}/project/${id}${url}`,
        body,
      );
      assert.deepEqual([foreign.status, foreign.body.error], [404, 'NotFound'], `${label}: other team`);
      const none = await stranger.client.request(method, `${base}${url}`, body);
      assert.deepEqual(
        [none.status, none.body.error],
        [404, 'NotFound'],
        `${label}: photographer without rights`,
      );
      const read = await reader.client.request(method, `${base}${url}`, body);
      assert.deepEqual([read.status, read.body.error], [403, 'MissingPermission'], `${label}: reader`);
    }
    const storeByReader = await reader.client.post(`/api/${team.teamUuid}/command/storexmpfile`, {
      dbprojectid: id,
      filename: 'a.xmp',
      content: '<x/>',
    });
    assert.deepEqual([storeByReader.status, storeByReader.body.error], [403, 'MissingPermission']);
    const storeByOther = await other.owner.client.post(`/api/${other.teamUuid}/command/storexmpfile`, {
      dbprojectid: id,
      filename: 'a.xmp',
      content: '<x/>',
    });
    assert.equal(storeByOther.status, 404);
    assert.equal(
      (await other.owner.client.get(`/api/${other.teamUuid}/project/${id}/xmpvalues`)).status,
      404,
    );
    assert.equal((await stranger.client.get(`${base}/xmpvalues`)).status, 404);

    const readByReader = await reader.client.get<Values>(`${base}/xmpvalues`);
    assert.equal(readByReader.status, 200);
    assert.deepEqual(
      readByReader.body.xmpvalues.map((v) => v.value),
      ['Headline'],
      'nothing changed',
    );
    const downloaded = await runCommand<{ filename: string; content: string }>(
      reader.client,
      team.teamUuid,
      'downloadxmpfile',
      { dbprojectid: id },
    );
    assert.equal(downloaded.state, 'ok');

    for (const [method, url, body] of writes) {
      const res = await writer.client.request(method, `${base}${url}`, body);
      assert.equal(res.status, 200, `${method} ${url}: writer ${JSON.stringify(res.body)}`);
    }
  });
});

describe('XMP sidecar commands', () => {
  test("download and upload round trip, as text and as data URL; upload replaces all values and modes, keeping the sidecar's modes", async () => {
    const team = await makeTeam(server);
    const { client } = team.owner;
    const source = await createProject(server, team, 'Quelle/Projekt');
    const target = await createProject(server, team, 'Ziel');
    const put = async (project: number, url: string, body: unknown = {}) =>
      assert.equal(
        (await client.put(`/api/${team.teamUuid}/project/${project}${url}`, body)).status,
        200,
        url,
      );
    await put(source, '/xmpvalue/headline', { value: 'Schlagzeile <&> "quoted"' });
    await put(source, '/xmpvalue/description', { value: 'Caption {city} =gb12=' });
    await put(source, '/xmpvalue/description/lang/de', { value: 'Bildunterschrift' });
    await put(source, '/xmpvalue/keywords/position/0', { value: 'eins' });
    await put(source, '/xmpvalue/keywords/position/1', { value: 'zwei' });
    await put(source, '/xmpvalue/locationCreated,city/position/0', { value: 'München' });
    await put(source, '/xmpvalue/locationCreated,city/position/1', { value: 'Dortmund' });
    await put(source, '/xmpvalue/creatorContactInfo,emailwork', { value: 'foto@example.com' });
    await put(source, '/xmpvaluemode/headline/mode/append');
    await put(target, '/xmpvalue/copyrightNotice', { value: 'old value, cleared by the upload' });
    await put(target, '/xmpvaluemode/copyrightNotice/mode/replace');

    const downloaded = await runCommand<{ filename: string; content: string }>(
      client,
      team.teamUuid,
      'downloadxmpfile',
      { dbprojectid: source },
    );
    assert.equal(downloaded.state, 'ok', JSON.stringify(downloaded.detail));
    assert.equal(downloaded.detail.filename, 'Quelle_Projekt.xmp');
    assert.match(downloaded.detail.content, /<x:xmpmeta/);
    assert.match(downloaded.detail.content, /Schlagzeile &lt;&amp;&gt;/);

    const stored = await runCommand<{ values: number; modes: number }>(
      client,
      team.teamUuid,
      'storexmpfile',
      {
        dbprojectid: target,
        filename: 'Quelle_Projekt.XMP',
        content: downloaded.detail.content,
      },
    );
    assert.equal(stored.state, 'ok', JSON.stringify(stored.detail));
    const [from, to] = await Promise.all(
      [source, target].map(
        async (p) => (await client.get<Values>(`/api/${team.teamUuid}/project/${p}/xmpvalues`)).body,
      ),
    );
    assert.deepEqual(to.xmpvalues, from.xmpvalues);
    assert.deepEqual(
      to.xmpmodes,
      ['creatorContactInfo', 'description', 'headline', 'keywords', 'locationCreated'].map(
        // The sidecar carries the source's modes (issue 16 item 5); the rest get replace.
        (propertytypeid) => ({ propertytypeid, mode: propertytypeid === 'headline' ? 'append' : 'replace' }),
      ),
    );
    assert.deepEqual([stored.detail.values, stored.detail.modes], [from.xmpvalues.length, 5]);

    // A data URL works the same; IPTC's own reference sidecar loads too.
    const reference = fs.readFileSync(sidecarPath);
    const fromReference = await runCommand<{ values: number; warnings: string[] }>(
      client,
      team.teamUuid,
      'storexmpfile',
      {
        dbprojectid: target,
        filename: 'reference.xmp',
        content: dataUrl(reference, 'application/rdf+xml'),
      },
    );
    assert.equal(fromReference.state, 'ok', JSON.stringify(fromReference.detail));
    const referenceValues = (await client.get<Values>(`/api/${team.teamUuid}/project/${target}/xmpvalues`))
      .body;
    assert.equal(referenceValues.xmpvalues.length, fromReference.detail.values);
    // A sidecar from elsewhere has no PhotoRelay modes: every property is replaced.
    assert.ok(referenceValues.xmpmodes.length > 5);
    assert.ok(referenceValues.xmpmodes.every((m) => m.mode === 'replace'));
    assert.ok(
      fromReference.detail.warnings.some((w) => /URI .*kept as given/.test(w)),
      'format problems of a real file are warnings',
    );
    assert.ok(
      referenceValues.xmpvalues.some((v) => v.propertytypeids === 'headline' && /ref2025\.1/.test(v.value)),
    );
    assert.ok(referenceValues.xmpvalues.some((v) => v.propertytypeids === 'creatorContactInfo,city'));
  });

  test('a broken or wrong file is refused with its reason and changes nothing', async () => {
    const team = await makeTeam(server);
    const { client } = team.owner;
    const id = await createProject(server, team);
    await client.put(`/api/${team.teamUuid}/project/${id}/xmpvalue/headline`, { value: 'kept' });
    const failures: Array<[Record<string, unknown>, RegExp]> = [
      [{ filename: 'broken.xmp', content: '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF' }, /./],
      [{ filename: 'evil.xmp', content: '<!DOCTYPE x [<!ENTITY a "b">]><x/>' }, /DOCTYPE/],
      [{ filename: 'values.txt', content: '<x/>' }, /\.xmp/],
      [{ filename: 'b64.xmp', content: 'data:application/rdf+xml;base64,@@@' }, /base64/],
      [
        {
          filename: 'long.xmp',
          content: `<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description rdf:about="" xmlns:photoshop="http://ns.adobe.com/photoshop/1.0/" photoshop:Headline="${'y'.repeat(1025)}"/></rdf:RDF></x:xmpmeta>`,
        },
        /1024/,
      ],
    ];
    for (const [body, pattern] of failures) {
      const res = await runCommand<string>(client, team.teamUuid, 'storexmpfile', {
        dbprojectid: id,
        ...body,
      });
      assert.equal(res.state, 'error', String(body.filename));
      assert.match(res.detail, pattern, String(body.filename));
    }
    const bad = await client.post(`/api/${team.teamUuid}/command/storexmpfile`, {
      dbprojectid: id,
      filename: 'a.xmp',
    });
    assert.equal(bad.status, 400);
    const values = (await client.get<Values>(`/api/${team.teamUuid}/project/${id}/xmpvalues`)).body.xmpvalues;
    assert.deepEqual(
      values.map((v) => v.value),
      ['kept'],
    );
  });
});
