// What the script step writes: only the properties a script wrote, and of those only the ones
// whose values differ from what the template produced.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { changesAsTemplate } from './processing-step.ts';

const before = [
  { p: 'description', v: 'Caption', lang: 'x-default' },
  { p: 'keywords', v: 'one', pos: 0 },
  { p: 'keywords', v: 'two', pos: 1 },
  { p: 'locationCreated,city', v: 'Berlin', pos: 0 },
  { p: 'headline', v: 'Headline {not a variable}' },
];

describe('changesAsTemplate', () => {
  test('nothing written, or the same values written back: no second stamping', () => {
    assert.equal(changesAsTemplate(before, { meta: [], written: [] }), undefined);
    const same = { meta: [before[2], before[1]].filter((v) => v !== undefined), written: ['keywords'] };
    assert.equal(changesAsTemplate(before, same), undefined);
  });

  test('written properties are replaced, the others left to the file', () => {
    const template = changesAsTemplate(before, {
      meta: [
        { p: 'keywords', v: 'one', pos: 0 },
        { p: 'locationCreated,city', v: 'BERLIN {x}', pos: 0 },
      ],
      written: ['locationCreated', 'keywords', 'description'],
    });
    assert.deepEqual(template, {
      // In the order the properties come in the file; a property written empty is removed.
      modes: { description: 'replace', keywords: 'replace', locationCreated: 'replace' },
      values: [
        { propertytypeids: 'description', value: '' },
        { propertytypeids: 'keywords', value: 'one', position: 0 },
        // A script's braces are text, not template variables.
        { propertytypeids: 'locationCreated,city', value: 'BERLIN \\{x}', position: 0 },
      ],
    });
  });
});
