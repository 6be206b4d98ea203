import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { KeyedAutosave, type SaveState, type TimerApi } from './autosave.ts';

/** Timers that only run when the test advances the clock. */
function fakeTimers() {
  let now = 0;
  let nextId = 1;
  const timers = new Map<number, { at: number; callback: () => void }>();
  const api: TimerApi = {
    setTimeout: (callback, ms) => {
      const id = nextId++;
      timers.set(id, { at: now + ms, callback });
      return id;
    },
    clearTimeout: (handle) => void timers.delete(handle as number),
  };
  const advance = async (ms: number) => {
    now += ms;
    for (const [id, timer] of [...timers].sort((a, b) => a[1].at - b[1].at)) {
      if (timer.at > now) continue;
      timers.delete(id);
      timer.callback();
    }
    // Let the saves' promise chains run.
    for (let i = 0; i < 10; i++) await Promise.resolve();
  };
  return { api, advance, count: () => timers.size };
}

type Call = { key: string; value: string; urgent: boolean };

function setup(options: { failOn?: string; hold?: boolean } = {}) {
  const timers = fakeTimers();
  const calls: Call[] = [];
  const states: Array<[string, SaveState]> = [];
  const releases: Array<() => void> = [];
  const autosave = new KeyedAutosave<string>({
    delayMs: 2000,
    timers: timers.api,
    save: (key, value, { urgent }) => {
      calls.push({ key, value, urgent });
      if (value === options.failOn) return Promise.reject(new Error('refused'));
      if (!options.hold) return Promise.resolve();
      return new Promise<void>((resolve) => releases.push(resolve));
    },
    onState: (key, state) => states.push([key, state]),
  });
  return { autosave, timers, calls, states, releases };
}

describe('autosave per field (spec §4: 2 seconds after the last change)', () => {
  it('saves once, 2 seconds after the last change, with the last text', async () => {
    const { autosave, timers, calls } = setup();
    autosave.schedule('headline', 'H');
    await timers.advance(1500);
    autosave.schedule('headline', 'He');
    await timers.advance(1500);
    assert.deepEqual(calls, [], 'the timer restarted with the second change');
    autosave.schedule('headline', 'Hello');
    await timers.advance(1999);
    assert.deepEqual(calls, []);
    await timers.advance(1);
    assert.deepEqual(calls, [{ key: 'headline', value: 'Hello', urgent: false }]);
    assert.equal(autosave.pendingCount, 0);
  });

  it('keeps one timer per field', async () => {
    const { autosave, timers, calls } = setup();
    autosave.schedule('headline', 'A');
    await timers.advance(1000);
    autosave.schedule('keywords|1|x-default', 'B');
    await timers.advance(1000);
    assert.deepEqual(
      calls.map((call) => call.key),
      ['headline'],
    );
    await timers.advance(1000);
    assert.deepEqual(
      calls.map((call) => call.key),
      ['headline', 'keywords|1|x-default'],
    );
  });

  it('flushes pending edits at once and waits for them', async () => {
    const { autosave, timers, calls, states } = setup();
    autosave.schedule('a', '1');
    autosave.schedule('b', '2');
    await autosave.flush();
    assert.deepEqual(
      calls.map((call) => [call.key, call.value, call.urgent]),
      [
        ['a', '1', false],
        ['b', '2', false],
      ],
    );
    assert.equal(timers.count(), 0, 'no timer left behind');
    await timers.advance(5000);
    assert.equal(calls.length, 2, 'nothing is saved twice');
    assert.deepEqual(states.at(-1), ['b', 'saved']);
  });

  it('marks saves sent while the page unloads as urgent', async () => {
    const { autosave, calls } = setup();
    autosave.schedule('a', '1');
    await autosave.flush({ urgent: true });
    assert.deepEqual(calls, [{ key: 'a', value: '1', urgent: true }]);
  });

  it('runs the saves of one field one after the other', async () => {
    const { autosave, timers, calls, releases } = setup({ hold: true });
    autosave.schedule('a', 'old');
    await timers.advance(2000);
    autosave.schedule('a', 'new');
    await timers.advance(2000);
    assert.deepEqual(
      calls.map((call) => call.value),
      ['old'],
      'the newer text waits for the older save',
    );
    releases.shift()?.();
    await timers.advance(0);
    assert.deepEqual(
      calls.map((call) => call.value),
      ['old', 'new'],
    );
    releases.shift()?.();
    await autosave.flush();
    assert.equal(autosave.runningCount, 0);
  });

  it('drops cancelled edits and reports failed saves', async () => {
    const { autosave, timers, calls, states } = setup({ failOn: 'bad' });
    autosave.schedule('a', 'x');
    autosave.schedule('b', 'y');
    assert.deepEqual(
      autosave.cancelWhere((key) => key === 'a'),
      ['a'],
    );
    autosave.schedule('c', 'bad');
    await timers.advance(2000);
    assert.deepEqual(
      calls.map((call) => call.key),
      ['b', 'c'],
    );
    assert.deepEqual(states.at(-1), ['c', 'error']);
    assert.ok(states.some(([key, state]) => key === 'b' && state === 'saved'));
  });
});
