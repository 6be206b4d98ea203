import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { getProperty } from './catalog.ts';
import { iimLimitWarning, validateValue } from './validate.ts';

function def(id: string) {
  const found = getProperty(id);
  assert.ok(found, id);
  return found;
}

describe('validateValue', () => {
  it('accepts up to 1024 characters (spec §5) and refuses more', () => {
    assert.deepEqual(validateValue(def('headline'), 'x'.repeat(1024)), { valid: true });
    const result = validateValue(def('headline'), 'x'.repeat(1025));
    assert.equal(result.valid, false);
    assert.equal(result.valid === false && result.code, 'tooLong');
  });

  it('checks the syntax of numbers, dates and URIs, but not of variables', () => {
    const code = (id: string, value: string): string | undefined => {
      const result = validateValue(def(id), value);
      return result.valid ? undefined : result.code;
    };
    assert.equal(code('imageRating', '4'), undefined);
    assert.equal(code('imageRating', 'four'), 'notNumber');
    assert.equal(code('maxAvailWidth', '4000'), undefined);
    assert.equal(code('maxAvailWidth', '40.5'), 'notInteger');
    assert.equal(code('dateCreated', '2024-05-03T14:22:00+02:00'), undefined);
    assert.equal(code('dateCreated', '03.05.2024'), undefined);
    assert.equal(code('dateCreated', 'yesterday'), 'notDate');
    assert.equal(code('dateCreated', '{datetime}'), undefined);
    assert.equal(code('webstatementRights', 'https://example.com/rights'), undefined);
    assert.equal(code('webstatementRights', 'example dot com'), 'notUri');
    assert.equal(code('headline', 'anything at all'), undefined);
    assert.equal(code('imageRating', '=rating='), undefined);
  });
});

describe('iimLimitWarning', () => {
  it('warns when a value needs more bytes than its IIM dataset holds', () => {
    assert.equal(iimLimitWarning(def('cityName'), 'Berlin'), undefined);
    assert.match(
      iimLimitWarning(def('cityName'), 'Ä'.repeat(17)) ?? '',
      /34 bytes; IPTC-IIM City \(2:90\) holds 32 bytes/,
    );
    assert.equal(iimLimitWarning(def('eventName'), 'x'.repeat(1000)), undefined, 'no IIM dataset, no limit');
  });
});
