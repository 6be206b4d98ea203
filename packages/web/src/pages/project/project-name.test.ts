import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import de from '../../i18n/de.json' with { type: 'json' };
import en from '../../i18n/en.json' with { type: 'json' };
import { projectNameProblem } from './project-name.ts';

describe('new project name (spec §5)', () => {
  it('must not be empty', () => {
    assert.equal(projectNameProblem(''), 'nameRequired');
    assert.equal(projectNameProblem('   '), 'nameRequired');
    assert.equal(de.projects.nameRequired, 'Der Projektname darf nicht leer sein.');
    assert.equal(en.projects.nameRequired, 'The project name must not be empty.');
  });

  it('takes up to 64 characters', () => {
    assert.equal(projectNameProblem('x'.repeat(64)), null);
    assert.equal(projectNameProblem('x'.repeat(65)), 'nameTooLong');
    assert.equal(projectNameProblem('Bundesliga 2025'), null);
  });
});
