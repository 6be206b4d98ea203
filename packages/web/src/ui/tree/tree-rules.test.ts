import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { FolderNode } from '../../api/folders.ts';
import { ancestorKeys, canPlace, renameInTree, renameValue, treeActions } from './tree-rules.ts';

type Init = Partial<FolderNode> & Pick<FolderNode, 'key' | 'id' | 'type'>;
const node = (init: Init, children: FolderNode[] = []): FolderNode => ({
  name: init.key,
  folderType: null,
  parent: -1,
  isRoot: false,
  isFolderAdmin: true,
  canWrite: true,
  permissions: { users: [], groups: [] },
  children,
  ...init,
});

// Projects (1) > Sports (2) > Football (3) > Match (project 10); Projects > News (project 11);
// FTP servers (4) > Archive (ftp 20); Calendars (5) > Cal (calendar 30); Settings (6) > users.
const match = node({ key: 'project-10', id: 10, type: 'project', parent: 3 });
const football = node({ key: 'folder-3', id: 3, type: 'projects', folderType: 'projects', parent: 2 }, [
  match,
]);
const sports = node({ key: 'folder-2', id: 2, type: 'projects', folderType: 'projects', parent: 1 }, [
  football,
]);
const news = node({ key: 'project-11', id: 11, type: 'project', parent: 1 });
const projects = node({ key: 'folder-1', id: 1, type: 'projects', folderType: 'projects', isRoot: true }, [
  sports,
  news,
]);
const archive = node({ key: 'ftpserver-20', id: 20, type: 'ftpserver', parent: 4 });
const ftpservers = node(
  { key: 'folder-4', id: 4, type: 'ftpservers', folderType: 'ftpservers', isRoot: true },
  [archive],
);
const calendar = node({ key: 'calendar-30', id: 30, type: 'calendar', parent: 5 });
const calendars = node({ key: 'folder-5', id: 5, type: 'calendars', folderType: 'calendars', isRoot: true }, [
  calendar,
]);
const users = node({ key: 'users-6', id: 6, type: 'users', parent: 6 });
const settings = node({ key: 'folder-6', id: 6, type: 'settings', folderType: 'settings', isRoot: true }, [
  users,
]);
const roots = [projects, ftpservers, calendars, settings];

describe('tree context menu (spec §2)', () => {
  it('offers new project and new folder on the projects root, but no rename, move or delete', () => {
    assert.deepEqual(treeActions(projects, null), ['newProject', 'newFolder']);
    assert.deepEqual(treeActions(ftpservers, null), ['newFtpServer', 'newFolder']);
  });

  it('offers creating inside projects sub-folders too', () => {
    assert.deepEqual(treeActions(sports, null), ['newProject', 'newFolder', 'rename', 'move']);
  });

  it('deletes only items without children', () => {
    assert.deepEqual(treeActions(match, null), ['rename', 'move', 'delete']);
    assert.deepEqual(treeActions(archive, null), ['rename', 'move', 'delete']);
    assert.ok(!treeActions(football, null).includes('delete'));
    const empty = node({ key: 'folder-9', id: 9, type: 'projects', folderType: 'projects', parent: 1 });
    assert.deepEqual(treeActions(empty, null), ['newProject', 'newFolder', 'rename', 'move', 'delete']);
  });

  it('has nothing for calendars, settings and their items', () => {
    for (const fixed of [calendars, calendar, settings, users])
      assert.deepEqual(treeActions(fixed, null), []);
  });

  it('has no entries without write access', () => {
    assert.deepEqual(treeActions({ ...match, canWrite: false }, null), []);
    assert.deepEqual(treeActions({ ...projects, canWrite: false }, null), []);
  });
});

describe('moving (spec §2)', () => {
  it('places a project only into projects folders it is not already in', () => {
    assert.ok(canPlace(match, projects));
    assert.ok(canPlace(match, sports));
    assert.ok(!canPlace(match, football), 'already there');
    assert.ok(!canPlace(match, ftpservers), 'other type');
    assert.ok(!canPlace(match, news), 'not a folder');
    assert.ok(!canPlace(match, calendars));
  });

  it('never moves a folder into itself or below itself', () => {
    assert.ok(!canPlace(sports, sports));
    assert.ok(!canPlace(sports, football));
    assert.ok(!canPlace(sports, projects), 'already there');
    assert.ok(canPlace(football, projects));
  });

  it('places FTP servers only into FTP server folders', () => {
    assert.ok(!canPlace(archive, projects));
    assert.ok(!canPlace(archive, ftpservers), 'already there');
    const folder = node({ key: 'folder-7', id: 7, type: 'ftpservers', folderType: 'ftpservers', parent: 4 });
    assert.ok(canPlace(archive, folder));
  });

  it('needs write access on the target', () => {
    assert.ok(!canPlace(match, { ...projects, canWrite: false }));
  });

  it('shows "Place here" while a move is pending, and a way to cancel it', () => {
    assert.deepEqual(treeActions(projects, match), ['newProject', 'newFolder', 'place', 'cancelMove']);
    assert.deepEqual(treeActions(match, match), ['rename', 'cancelMove', 'delete']);
    assert.deepEqual(treeActions(ftpservers, match), ['newFtpServer', 'newFolder', 'cancelMove']);
  });
});

describe('renaming', () => {
  it('saves only a changed, non-empty name, cut to the limit', () => {
    assert.equal(renameValue(match, '  '), null);
    assert.equal(renameValue(match, 'project-10'), null);
    assert.equal(renameValue(match, ' Final '), 'Final');
    assert.equal(renameValue(match, 'x'.repeat(80))?.length, 64);
    assert.equal(renameValue(projects, 'Root'), 'Root', 'roots are refused by the menu, not here');
    assert.equal(renameValue(calendar, 'New'), null);
  });

  it('renames a node deep in the tree without touching the others', () => {
    const renamed = renameInTree(roots, 'project-10', 'Final');
    assert.equal(renamed[0].children[0].children[0].children[0].name, 'Final');
    assert.equal(renamed[0].children[1], news);
    assert.equal(renamed[1], ftpservers);
  });

  it('finds the path to a node', () => {
    assert.deepEqual(
      ancestorKeys(roots, (n) => n.key === 'project-10'),
      ['folder-1', 'folder-2', 'folder-3'],
    );
    assert.equal(
      ancestorKeys(roots, (n) => n.key === 'nope'),
      null,
    );
  });
});
