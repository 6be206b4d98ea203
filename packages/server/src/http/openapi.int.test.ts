import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { errorCodes } from '@photorelay/contract/errors';
import { routeErrors } from '@photorelay/contract/route';
import { aliases, contractRoutes, notYetInContract, routeKey } from '../../test/support/contract-routes.ts';
import { startTestServer, type TestServer } from '../../test/support/server.ts';
import { sessionCookie } from './session.ts';

let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(() => server.stop());

type Operation = {
  requestBody?: { content?: Record<string, { schema?: unknown }> };
  responses: Record<
    string,
    { content?: Record<string, { schema?: { properties?: Record<string, unknown> } }> }
  >;
  security?: unknown;
};

test('the OpenAPI document shows every route of the contract with its body, error answers and session', async () => {
  const res = await server.client().get('/api/docs/json');
  assert.equal(res.status, 200);
  const doc = res.body as {
    components: { securitySchemes: Record<string, unknown> };
    paths: Record<string, Record<string, Operation>>;
  };
  assert.deepEqual(doc.components.securitySchemes, {
    session: { type: 'apiKey', in: 'cookie', name: sessionCookie },
  });

  const declared = contractRoutes();
  const served = new Set<string>();
  let bodies = 0;
  let errorAnswers = 0;
  for (const [path, operations] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(operations)) {
      const written = routeKey(method.toUpperCase(), path.replace(/\{(\w+)\}/g, ':$1'));
      if (notYetInContract.has(written)) continue;
      const key = aliases.get(written) ?? written;
      const route = declared.get(key);
      assert.ok(route, `${written} is served but not declared in the contract`);
      served.add(key);

      if (route.body) {
        assert.ok(op.requestBody?.content?.['application/json']?.schema, `${written}: request body`);
        bodies++;
      } else assert.equal(op.requestBody, undefined, `${written}: no request body declared`);

      assert.ok(op.responses['200'], `${written}: 200 answer`);
      for (const code of routeErrors(route)) {
        const answer = op.responses[String(errorCodes[code])];
        const shape = answer?.content?.['application/json']?.schema?.properties;
        assert.ok(shape?.error && shape.message, `${written}: ${code} answer with its error shape`);
        errorAnswers++;
      }

      const needsSession = route.team || route.access.access === 'user';
      assert.deepEqual(op.security, needsSession ? [{ session: [] }] : [], `${written}: security`);
    }
  }
  const missing = [...declared.keys()].filter((key) => !served.has(key));
  assert.deepEqual(missing, [], 'declared in the contract but not in the document');
  // Floors, so that an empty document cannot pass: today 106 routes, 49 bodies, 435 error answers.
  assert.ok(bodies >= 45, `${bodies} request bodies`);
  assert.ok(errorAnswers >= 3 * served.size, `${errorAnswers} error answers for ${served.size} routes`);
});
