import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { addableGroups, addableUsers, levelOf, permissionsOf } from './permission-levels.ts';

describe('permission levels (spec §4)', () => {
  it('maps the three levels to permission lists', () => {
    assert.deepEqual(permissionsOf('read'), ['read']);
    assert.deepEqual(permissionsOf('readWrite'), ['read', 'write']);
    assert.deepEqual(permissionsOf('admin'), ['read', 'write', 'folder_admin']);
  });

  it('starts the edit dialog at the highest level held', () => {
    assert.equal(levelOf(['read']), 'read');
    assert.equal(levelOf(['write']), 'readWrite');
    assert.equal(levelOf(['read', 'folder_admin']), 'admin');
    assert.equal(levelOf([]), null);
  });
});

describe('add dialog choices (spec §5)', () => {
  it('offers only verified users not listed yet', () => {
    const members = [
      { dbuserid: 1, email_verified: true },
      { dbuserid: 2, email_verified: false },
      { dbuserid: 3, email_verified: true },
    ];
    assert.deepEqual(
      addableUsers(members, [{ dbuserid: 3, permissions: ['read'] }]).map((m) => m.dbuserid),
      [1],
    );
  });

  it('excludes groups with all permissions and listed groups', () => {
    const groups = [
      { dbgroupid: 1, has_all_permissions: true },
      { dbgroupid: 2, has_all_permissions: true },
      { dbgroupid: 3, has_all_permissions: false },
    ];
    assert.deepEqual(
      addableGroups(groups, []).map((g) => g.dbgroupid),
      [3],
    );
    assert.deepEqual(addableGroups(groups, [{ dbgroupid: 3, permissions: ['read'] }]), []);
  });
});
