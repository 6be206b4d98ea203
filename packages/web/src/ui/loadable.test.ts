import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createElement as h } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { loadable } from './loadable.ts';

const Spinner = () => h('i', null, 'loading');
const Hello = ({ name }: { name: string }) => h('b', null, `hello ${name}`);

describe('loadable', () => {
  it('shows its fallback until the code is there, then the component at once (no Suspense)', async () => {
    let loads = 0;
    const Screen = loadable(
      async () => {
        loads += 1;
        return { Hello };
      },
      (module) => module.Hello,
      Spinner,
    );
    assert.equal(renderToStaticMarkup(h(Screen, { name: 'Ada' })), '<i>loading</i>');
    await Screen.preload();
    assert.equal(renderToStaticMarkup(h(Screen, { name: 'Ada' })), '<b>hello Ada</b>');
    await Screen.preload();
    assert.equal(loads, 1, 'the code is asked for once');
  });

  it('asks again after a failed load', async () => {
    let attempt = 0;
    const Screen = loadable(
      async () => {
        attempt += 1;
        if (attempt === 1) throw new Error('offline');
        return { Hello };
      },
      (module) => module.Hello,
    );
    await assert.rejects(Screen.preload(), /offline/);
    assert.equal(renderToStaticMarkup(h(Screen, { name: 'Bo' })), '', 'no fallback given: nothing');
    assert.equal(await Screen.preload(), Hello);
    assert.equal(attempt, 2);
  });
});
