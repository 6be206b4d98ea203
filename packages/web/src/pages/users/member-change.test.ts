import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { memberChange } from './member-change.ts';

const photographer = {
  dbgroupid: 3,
  name: 'Photographer',
  localizedName: 'Photographer',
  has_all_permissions: false,
};
const owner = { dbgroupid: 1, name: 'Owner', localizedName: 'Team Owner', has_all_permissions: true };
const member = { dbuserid: 7, groups: [photographer], isOwner: false, accreditation_number: null };

describe('edit user dialog', () => {
  it('sends nothing when nothing changed', () => {
    assert.equal(memberChange(member, { group: 3, accreditation: '  ' }), null);
  });

  it('sends a new group and a trimmed accreditation number', () => {
    assert.deepEqual(memberChange(member, { group: 2, accreditation: ' A-17 ' }), {
      dbuserid: 7,
      group: 2,
      accreditationNumber: 'A-17',
    });
  });

  it('clears the accreditation number with null', () => {
    assert.deepEqual(
      memberChange({ ...member, accreditation_number: 'A-17' }, { group: 3, accreditation: '' }),
      {
        dbuserid: 7,
        accreditationNumber: null,
      },
    );
  });

  it('never changes the owner group', () => {
    const theOwner = { ...member, groups: [owner], isOwner: true };
    assert.equal(memberChange(theOwner, { group: 3, accreditation: '' }), null);
  });
});
