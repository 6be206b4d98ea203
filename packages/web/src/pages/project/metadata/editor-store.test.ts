import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { SaveValueInput } from '../../../api/metadata.ts';
import type { TimerApi } from './autosave.ts';
import { MetadataEditorStore, nestedContainer } from './editor-store.ts';

/** Timers run only on flush; the store's saves are then awaited. */
const idleTimers: TimerApi = { setTimeout: () => 0, clearTimeout: () => {} };

function setup(fail = false) {
  const saved: Array<SaveValueInput & { urgent: boolean }> = [];
  const store = new MetadataEditorStore(
    async (input, { urgent }) => {
      saved.push({ ...input, urgent });
      if (fail) throw new Error('ValidationError');
    },
    { timers: idleTimers },
  );
  let notified = 0;
  store.subscribe(() => notified++);
  return { store, saved, notifications: () => notified };
}

describe('metadata editor store', () => {
  it('shows the draft until the save is done, then the stored text', async () => {
    const { store, saved, notifications } = setup();
    store.edit({ ids: 'headline' }, 'Goal!', true);
    assert.equal(store.draft('headline|0|x-default'), 'Goal!');
    assert.equal(store.summary(), 'pending');
    assert.ok(store.dirty);
    assert.ok(notifications() > 0);
    await store.flush();
    assert.deepEqual(saved, [{ slot: { ids: 'headline' }, value: 'Goal!', urgent: false }]);
    assert.equal(store.draft('headline|0|x-default'), undefined);
    assert.equal(store.status('headline|0|x-default')?.state, 'saved');
    assert.equal(store.summary(), 'saved');
    assert.ok(!store.dirty);
  });

  it('does not save an invalid text', async () => {
    const { store, saved } = setup();
    store.edit({ ids: 'headline' }, 'ok', true);
    store.edit({ ids: 'headline' }, 'x'.repeat(1025), false);
    await store.flush();
    assert.deepEqual(saved, []);
    assert.equal(store.status('headline|0|x-default')?.state, 'invalid');
    assert.equal(store.summary(), 'error');
  });

  it('keeps the draft when the save fails', async () => {
    const { store } = setup(true);
    store.edit({ ids: 'keywords', position: 2 }, 'sport', true);
    await store.flush();
    assert.equal(store.draft('keywords|2|x-default'), 'sport');
    assert.equal(store.status('keywords|2|x-default')?.state, 'error');
    assert.equal(store.summary(), 'error');
  });

  it('sends urgent saves while the page unloads', async () => {
    const { store, saved } = setup();
    store.edit({ ids: 'title', lang: 'de' }, 'Titel', true);
    await store.flush({ urgent: true });
    assert.deepEqual(saved, [{ slot: { ids: 'title', lang: 'de' }, value: 'Titel', urgent: true }]);
  });

  it('drops the edits of a removed item and its locally added entry', async () => {
    const { store, saved } = setup();
    store.addItem('locationsShown', 3);
    store.edit({ ids: 'locationsShown,city', position: 3 }, 'Rome', true);
    store.edit({ ids: 'locationsShown,city', position: 1 }, 'Paris', true);
    store.discard({ ids: 'locationsShown', position: 3 }, { container: 'locationsShown', index: 3 });
    assert.deepEqual(store.addedItems('locationsShown'), []);
    assert.equal(store.draft('locationsShown,city|3|x-default'), undefined);
    await store.flush();
    assert.deepEqual(
      saved.map((entry) => entry.value),
      ['Paris'],
    );
  });

  it('keeps added items and languages stable until they change', () => {
    const { store } = setup();
    const container = nestedContainer('personsShown,identifiers', 2);
    assert.equal(container, 'personsShown,identifiers@2');
    assert.equal(store.addedItems(container), store.addedItems(container));
    store.addItem(container, 0);
    store.addItem(container, 0);
    const list = store.addedItems(container);
    assert.deepEqual(list, [0]);
    assert.equal(store.addedItems(container), list, 'same array for useSyncExternalStore');
    store.addLanguage('title', 'de');
    store.discard({ ids: 'title', lang: 'de' }, { propertyId: 'title', lang: 'de' });
    assert.deepEqual(store.addedLanguages('title'), []);
  });

  it('lets a save on the way finish before a clear, and drops the rest', async () => {
    let release = () => {};
    const saved: string[] = [];
    const store = new MetadataEditorStore(
      (input) => {
        saved.push(input.value);
        return new Promise<void>((resolve) => {
          release = resolve;
        });
      },
      { timers: idleTimers },
    );
    store.edit({ ids: 'headline' }, 'on the way', true);
    const flushed = store.flush();
    store.edit({ ids: 'title', lang: 'de' }, 'still waiting', true);
    let settled = false;
    const settling = store.settle().then(() => {
      settled = true;
    });
    await Promise.resolve();
    assert.equal(settled, false, 'waits for the running save');
    release();
    await Promise.all([flushed, settling]);
    assert.deepEqual(saved, ['on the way']);
    assert.equal(store.draft('title|0|de'), undefined);
  });

  it('forgets everything on discardAll (clear, XMP import)', async () => {
    const { store, saved } = setup();
    store.edit({ ids: 'headline' }, 'A', true);
    store.addItem('keywords', 1);
    store.discardAll();
    await store.flush();
    assert.deepEqual(saved, []);
    assert.equal(store.draft('headline|0|x-default'), undefined);
    assert.deepEqual(store.addedItems('keywords'), []);
  });
});
