import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import en from '../../i18n/en.json' with { type: 'json' };
import { describeJobState, type JobText, unstampedReason, uploadSpeed } from './job-state.ts';

const now = Date.parse('2025-05-01T12:00:00Z');
const base = { scheduletime: '2025-05-01T12:00:30Z', trynumber: 0, errortext: null };

/** Renders a view's text with the English resources, like the page does. */
function render(text: JobText | null): string | null {
  if (!text) return null;
  if ('text' in text) return text.text;
  const states = en.jobs.states as Record<string, string>;
  const name = text.key.replace('states.', '');
  const count = text.values?.count;
  const template = states[count === undefined ? name : `${name}_${count === 1 ? 'one' : 'other'}`];
  const filled = template.replace(/\{\{(\w+)\}\}/g, (_all, key: string) => String(text.values?.[key]));
  return text.suffix ? `${filled} ${text.suffix}` : filled;
}

describe('job state display (spec §4)', () => {
  it('shows a scheduled job as starting, with the time until start and when it is due', () => {
    const view = describeJobState({ ...base, state: 'scheduled' }, now, 'en');
    assert.equal(view.tone, 'info');
    assert.equal(render(view.label), 'starting in 30 seconds');
    assert.match(render(view.detail) ?? '', /^scheduled at \d\d:\d\d:30$/);
  });

  it('tells that the last try failed', () => {
    const view = describeJobState(
      { ...base, state: 'scheduled', trynumber: 1, errortext: '530 Login incorrect.' },
      now,
      'en',
    );
    assert.equal(render(view.detail), 'last try failed (530 Login incorrect.)');
  });

  it('starts now when the time has come', () => {
    const view = describeJobState(
      { ...base, state: 'scheduled', scheduletime: '2025-05-01T11:00:00Z' },
      now,
      'en',
    );
    assert.equal(render(view.label), 'starting now');
  });

  it('shows running, failed with its error, and succeeded with retries', () => {
    assert.equal(render(describeJobState({ ...base, state: 'running' }, now, 'en').label), 'running');
    const failed = describeJobState(
      { ...base, state: 'failed', errortext: 'connect ECONNREFUSED' },
      now,
      'en',
    );
    assert.equal(render(failed.label), 'failed');
    assert.equal(render(failed.detail), 'connect ECONNREFUSED');
    assert.equal(failed.tone, 'error');
    const clean = describeJobState({ ...base, state: 'succeeded' }, now, 'en');
    assert.equal(render(clean.label), 'succeeded');
    assert.equal(clean.detail, null);
    assert.equal(
      render(describeJobState({ ...base, state: 'succeeded', trynumber: 1 }, now, 'en').detail),
      'after 1 retry',
    );
    assert.equal(
      render(describeJobState({ ...base, state: 'succeeded', trynumber: 3 }, now, 'en').detail),
      'after 3 retries',
    );
  });

  it('explains duplicates and shows UNKNOWN for anything else', () => {
    assert.equal(
      render(describeJobState({ ...base, state: 'duplicate' }, now, 'en').label),
      'duplicate – not sent again',
    );
    assert.equal(render(describeJobState({ ...base, state: 'paused' }, now, 'en').label), 'UNKNOWN');
  });

  it('tells the upload speed of finished jobs only', () => {
    assert.equal(uploadSpeed({ state: 'succeeded', filesize: 4096, uploadduration: 2000 }), 2048);
    assert.equal(uploadSpeed({ state: 'failed', filesize: 4096, uploadduration: 2000 }), null);
    assert.equal(uploadSpeed({ state: 'succeeded', filesize: 4096, uploadduration: null }), null);
  });

  it('tells a file that could not be stamped, with the reason, and nothing for stamped files', () => {
    const failed = { processing: { metadata: { error: 'JPEG ends (EOI) before any image data (SOS)' } } };
    assert.equal(unstampedReason({ detail: failed }), 'JPEG ends (EOI) before any image data (SOS)');
    assert.equal(
      en.jobs.unstamped.replace('{{reason}}', unstampedReason({ detail: failed }) ?? ''),
      'delivered unstamped: JPEG ends (EOI) before any image data (SOS)',
    );
    assert.equal(
      unstampedReason({ detail: { processing: { metadata: { applied: 3, warnings: [] } } } }),
      null,
    );
    assert.equal(unstampedReason({ detail: { job: null, processing: null } }), null);
    assert.equal(unstampedReason({ detail: undefined }), null);
  });

  it('shows a held job (it could not be stamped) as held', () => {
    const view = describeJobState({ ...base, state: 'held' }, now, 'en');
    assert.equal(view.state, 'held');
    assert.equal(render(view.label), 'held – cannot be stamped');
  });
});
