import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { eventDefaults, eventFormSchema, formToBody, parseCategoryFile, sceneOptions } from './event-form.ts';

const issues = (values: unknown) => {
  const result = eventFormSchema.safeParse(values);
  return result.success
    ? {}
    : Object.fromEntries(result.error.issues.map((issue) => [issue.path.join('.'), issue.message]));
};

describe('event form (spec §5)', () => {
  const base = { ...eventDefaults('23.11.2026'), scene: 'Bundesliga', team1: 'FC A', team2: 'FC B' };

  it('defaults to 17:00 today, sport, football, two hours long', () => {
    const defaults = eventDefaults('23.11.2026');
    assert.equal(defaults.time, '17:00');
    assert.equal(defaults.date, '23.11.2026');
    assert.equal(defaults.category, 'sport');
    assert.equal(defaults.subcategory, 'football');
    assert.equal(defaults.endTime, '19:00');
  });

  it('requires date, time and scene and checks their formats', () => {
    assert.deepEqual(issues(base), {});
    assert.equal(issues({ ...base, scene: ' ' }).scene, 'validation.required');
    assert.equal(issues({ ...base, date: '2026-11-23' }).date, 'validation.invalidDate');
    assert.equal(issues({ ...base, date: '' }).date, 'validation.required');
    assert.equal(issues({ ...base, time: '5pm' }).time, 'validation.invalidTime');
    assert.equal(issues({ ...base, urgency: 9 }).urgency !== undefined, true);
    assert.equal(issues({ ...base, endDate: '22.11.2026' }).endTime, 'validation.endBeforeStart');
  });

  it("makes the summary 'team1 - team2' for team events and writes the zone's offset", () => {
    const body = formToBody(
      eventFormSchema.parse({ ...base, summary: 'ignored', urgency: '3' }),
      'Europe/Berlin',
    );
    assert.equal(body.summary, 'FC A - FC B');
    assert.equal(body.startdatetime, '2026-11-23T17:00:00+01:00');
    assert.equal(body.enddatetime, '2026-11-23T19:00:00+01:00');
    assert.equal(body.urgency, 3);
    const news = formToBody(
      eventFormSchema.parse({ ...base, showTeams: false, summary: 'Pressekonferenz', category: 'news' }),
      'Europe/Berlin',
    );
    assert.equal(news.summary, 'Pressekonferenz');
    assert.equal(news.team1, '');
  });

  it('reads category files and survives broken ones', () => {
    const file = parseCategoryFile(
      JSON.stringify({
        category: 'sport',
        subCategories: [{ id: 'football', showTeams: true, scenes: ['DFB-Pokal'] }],
      }),
    );
    assert.equal(file.subCategories[0]?.showTeams, true);
    assert.deepEqual(parseCategoryFile('{not json').subCategories, []);
    assert.deepEqual(parseCategoryFile(undefined).subCategories, []);
  });

  it("offers scenes for news too: the subcategory's, else all of the file, else the built-in list", () => {
    const news = parseCategoryFile(
      JSON.stringify({
        subCategories: [
          { id: 'politics', scenes: ['Wahl'] },
          { id: 'local', scenes: ['Unfall'] },
        ],
      }),
    );
    assert.deepEqual(sceneOptions(news, 'politics', 'news', ['Press conference']), ['Wahl']);
    // Switching the category empties the subcategory: suggestions stay.
    assert.deepEqual(sceneOptions(news, '', 'news', ['Press conference']), ['Wahl', 'Unfall']);
    const bare = parseCategoryFile(JSON.stringify({ subCategories: [{ id: 'politics' }] }));
    assert.deepEqual(sceneOptions(bare, 'politics', 'news', ['Press conference']), ['Press conference']);
    assert.deepEqual(sceneOptions(bare, 'politics', 'sport', ['Press conference']), []);
  });
});
