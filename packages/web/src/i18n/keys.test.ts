// i18n keys are type-checked (i18n.ts declares the resources as i18next's CustomTypeOptions): a
// known key compiles, a misspelt one must fail `tsc` (the @ts-expect-error lines fail otherwise).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import i18next from 'i18next';

const shellEn = JSON.parse(readFileSync(new URL('./en.json', import.meta.url), 'utf8')).shell;

describe('i18n keys', () => {
  it('a known key compiles and a misspelt key does not', async () => {
    const i18n = i18next.createInstance();
    await i18n.init({ lng: 'en', resources: { en: { shell: shellEn } }, ns: ['shell'], defaultNS: 'shell' });
    const t = i18n.getFixedT('en', 'shell');
    assert.equal(t('tree.labels.folders'), 'Folders');
    // @ts-expect-error a key that is not in en.json fails the type check
    assert.equal(t('tree.labels.folderz'), 'tree.labels.folderz');
  });
});
