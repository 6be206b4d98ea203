// User management and folder permissions (spec §2 'User management page', 'Folder page', §4
// 'Invite result', 'Permission levels', §5, §6): the owner invites a photographer by e-mail, the
// invitee signs up from the mail, gets a group, an accreditation number and read access to one
// folder, and then sees only that part of the tree without being able to change anything.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { type Account, newAccount, registerVerified, signIn } from './support/accounts.ts';
import { launchBrowser, newContext, type PageProblems, watchProblems } from './support/browser.ts';
import { settledScreenshot } from './support/screens.ts';
import { freePort, startServer, type TestServer } from './support/server.ts';
import { menuEntries, rootFolderId, type TeamApi, teamApi, treeItem } from './support/team-api.ts';

describe('team users and folder permissions', () => {
  let server: TestServer;
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  let page: Page;
  let problems: PageProblems;
  let api: TeamApi;
  let owner: Account;
  const stamp = Date.now();
  const invitee: Account = {
    email: `ines.${stamp}@example.com`,
    password: 'aperture-8',
    firstName: 'Ines',
    lastName: 'Invited',
    company: '',
  };
  const rowOf = (email: string) => page.getByTestId(`user-row-${email}`);

  const openPage = async () => {
    const context = await newContext(browser, server.url);
    contexts.push(context);
    const opened = await context.newPage();
    opened.setDefaultTimeout(10_000);
    return opened;
  };

  const invite = async (email: string) => {
    await page.getByTestId('users-add').click();
    await page.getByTestId('invite-email').fill(email);
    await page.getByTestId('invite-submit').click();
    await page.getByTestId('invite-dialog').waitFor({ state: 'detached' });
  };

  before(async () => {
    server = await startServer({
      FTP_PORT: String(await freePort()),
      SFTP_PORT: String(await freePort()),
      DEBUG_ADMIN: '1',
    });
    browser = await launchBrowser();
    page = await openPage();
    problems = watchProblems(page);
    owner = newAccount('Olga', 'Olga Owner Images');
    await registerVerified(server, page.request, owner);
    await signIn(page, owner);
    api = await teamApi(page, server);
    // The tree the photographer gets a part of (building trees is the tree test's subject).
    const projects = await rootFolderId(api, 'projects');
    const { folderId } = await api.post<{ folderId: number }>('folder', {
      parentFolderId: projects,
      name: 'Assignments',
    });
    await api.post('project', { name: 'Derby', parentFolderId: folderId });
    await api.post('project', { name: 'Internal desk', parentFolderId: projects });
    await api.post('ftpserver', {
      name: 'Agency',
      host: 'ftp.agency.example',
      protocol: 'ftp',
      username: 'agency',
      password: 'agency-secret',
      parentFolderId: await rootFolderId(api, 'ftpservers'),
    });
  });

  after(async () => {
    for (const context of contexts) await context.close().catch(() => {});
    await browser?.close();
    await server?.stop();
  });

  it('lists the team with the owner, who cannot be removed', async () => {
    await page.reload();
    await treeItem(page, 'Users').click();
    await page.waitForURL('**/users');
    await page.getByRole('heading', { name: 'Users' }).waitFor();
    for (const column of ['Account', 'Name', 'Groups'])
      await page.getByRole('columnheader', { name: column }).waitFor();
    const row = rowOf(owner.email);
    await row.getByText('Olga Tester').waitFor();
    await row.getByTestId('user-group').getByText('Team Owner').waitFor();
    assert.equal(await row.getByTestId('user-remove').count(), 0, 'no remove for the owner');
  });

  it('invites by e-mail with the spec validation and results', async () => {
    await page.getByTestId('users-add').click();
    const dialog = page.getByTestId('invite-dialog');
    const submit = dialog.getByTestId('invite-submit');
    assert.ok(await submit.isDisabled(), 'disabled while empty');
    await dialog.getByTestId('invite-email').fill('ines@example');
    await dialog.getByTestId('invite-email').blur();
    await dialog.getByText('Not a valid e-mail address').waitFor();
    assert.ok(await submit.isDisabled());
    await dialog.getByTestId('invite-email').fill('ines@example.abcdefghijklm');
    await dialog.getByText('Not a valid e-mail address').waitFor();
    await settledScreenshot(page, '80-users-invite-invalid', { fullPage: false });
    await dialog.getByTestId('invite-email').fill(invitee.email);
    assert.ok(await submit.isEnabled());
    await submit.click();
    await page.getByText('An invitation was sent').waitFor();
    await rowOf(invitee.email)
      .getByTestId('user-invitation-pending')
      .getByText('Invitation pending')
      .waitFor();
    await rowOf(invitee.email).getByTestId('user-group').getByText('Photographer').waitFor();

    await invite(invitee.email);
    await page.getByText('User already in team.').waitFor();
    await settledScreenshot(page, '81-users-invited');
  });

  it('lets the invitee sign up from the mail in invitation mode', async () => {
    const link = new URL(await server.linkFromMail(invitee.email));
    assert.equal(link.pathname, '/signup');
    const guest = await openPage();
    await guest.goto(`${link.pathname}${link.search}`);
    await guest.getByRole('heading', { name: 'Accept invitation' }).waitFor();
    assert.equal(await guest.getByTestId('signup-email').inputValue(), invitee.email);
    await guest.getByTestId('signup-firstName').fill(invitee.firstName);
    await guest.getByTestId('signup-lastName').fill(invitee.lastName);
    await guest.getByTestId('signup-password').fill(invitee.password);
    await guest.getByTestId('signup-repeat').fill(invitee.password);
    await guest.getByTestId('signup-submit').click();
    // Issue 27 item 3: the sign-up through the invitation signs in, into the team.
    await guest.getByTestId('topbar-team').waitFor({ timeout: 30_000 });
    await guest.waitForURL((url) => url.pathname === '/');
    await guest.context().close();

    await page.reload();
    await rowOf(invitee.email).getByText('Ines Invited').waitFor();
    assert.equal(await rowOf(invitee.email).getByTestId('user-invitation-pending').count(), 0);
  });

  it('edits group and accreditation number; Owner is never offered', async () => {
    // The owner's group is fixed.
    await rowOf(owner.email).getByTestId('user-edit').click();
    const dialog = page.getByTestId('edit-user-dialog');
    await dialog.getByText('Edit user').waitFor();
    assert.ok(await dialog.getByTestId('edit-user-group').isDisabled());
    await dialog.getByRole('button', { name: 'Cancel' }).click();

    await rowOf(invitee.email).getByTestId('user-edit').click();
    await dialog.getByTestId('edit-user-group-select').getByRole('combobox').click();
    const options = await page.locator('[data-testid^="group-option-"]').allTextContents();
    assert.deepEqual(options.sort(), ['Operator', 'Photographer']);
    await page.getByTestId('group-option-Operator').click();
    await dialog.getByTestId('edit-user-save').click();
    await rowOf(invitee.email).getByTestId('user-group').getByText('Operator').waitFor();

    // The owner makes them a Photographer with an accreditation number.
    await rowOf(invitee.email).getByTestId('user-edit').click();
    await dialog.getByTestId('edit-user-group-select').getByRole('combobox').click();
    await page.getByTestId('group-option-Photographer').click();
    await dialog.getByTestId('edit-user-accreditation').fill('DFL-2025-117');
    await settledScreenshot(page, '82-users-edit', { fullPage: false });
    await dialog.getByTestId('edit-user-save').click();
    await rowOf(invitee.email).getByTestId('user-group').getByText('Photographer').waitFor();
    await rowOf(invitee.email).getByTestId('user-accreditation').getByText('DFL-2025-117').waitFor();
  });

  it('force-accepts a pending invitation in debug mode and removes a user after confirming', async () => {
    const pending = `paul.${stamp}@example.com`;
    await invite(pending);
    await rowOf(pending).getByTestId('user-invitation-pending').waitFor();
    assert.equal(await rowOf(pending).getByTestId('user-accept').count(), 0, 'debug mode only');
    await page.goto('/users?debug=1');
    await rowOf(pending).getByTestId('user-accept').click();
    await page.getByTestId('accept-password').fill('debug-pass-1');
    await page.getByTestId('accept-submit').click();
    await page.getByText(`The invitation of ${pending} was accepted.`).waitFor();
    await rowOf(pending).getByTestId('user-invitation-pending').waitFor({ state: 'detached' });
    assert.equal(
      await rowOf(invitee.email).getByTestId('user-accept').count(),
      0,
      'only for unverified users',
    );
    await page.goto('/users?debug=0');

    await rowOf(pending).getByTestId('user-remove').click();
    const confirm = page.getByTestId('user-remove-dialog');
    await confirm.getByText('Remove user').waitFor();
    await confirm.getByText('The user will be removed from the project.').waitFor();
    await confirm.getByRole('button', { name: 'Cancel' }).waitFor();
    await settledScreenshot(page, '83-users-remove', { fullPage: false });
    await confirm.getByRole('button', { name: 'Remove' }).click();
    await rowOf(pending).waitFor({ state: 'detached' });
    await settledScreenshot(page, '84-users');
  });

  it('gives the photographer read access to one folder on the folder page', async () => {
    await treeItem(page, 'Assignments').click();
    await page.waitForURL(/\/folder\?id=\d+/);
    await page.getByRole('heading', { name: 'Assignments' }).waitFor();
    await page.getByTestId('folder-user-permissions-empty').waitFor();

    await page.getByTestId('folder-add-user').click();
    const dialog = page.getByTestId('permission-dialog');
    assert.ok(await dialog.getByTestId('permission-save').isDisabled(), 'a user is required');
    for (const label of ['read only', 'read and write', 'administrate'])
      await dialog.getByText(label, { exact: true }).waitFor();
    await dialog.getByTestId('permission-subject-select').getByRole('combobox').click();
    const choices = page.locator('[data-testid^="permission-choice-"]');
    await choices.first().waitFor();
    const offered = await choices.evaluateAll((items) =>
      items.map((item) => item.getAttribute('data-testid')),
    );
    assert.ok(offered.includes(`permission-choice-${invitee.email}`));
    await page.getByTestId(`permission-choice-${invitee.email}`).click();
    await dialog.getByTestId('permission-level-read').click();
    await settledScreenshot(page, '85-folder-add-user', { fullPage: false });
    await dialog.getByTestId('permission-save').click();
    const table = page.getByTestId('folder-user-permissions');
    await table.getByText(invitee.email).waitFor();
    await table.getByTestId('permission-level').getByText('read', { exact: true }).waitFor();

    // The edit dialog starts at the level held.
    await table.getByTestId('permission-edit').click();
    assert.ok(await dialog.getByTestId('permission-level-read').locator('input').isChecked());
    await dialog.getByTestId('permission-level-readWrite').click();
    await dialog.getByTestId('permission-save').click();
    await table.getByTestId('permission-level').getByText('read/write').waitFor();
    await table.getByTestId('permission-edit').click();
    assert.ok(await dialog.getByTestId('permission-level-readWrite').locator('input').isChecked());
    await dialog.getByTestId('permission-level-read').click();
    await dialog.getByTestId('permission-save').click();
    await table.getByTestId('permission-level').getByText('read', { exact: true }).waitFor();

    // Groups with all permissions are not offered.
    await page.getByTestId('folder-add-group').click();
    await dialog.getByTestId('permission-subject-select').getByRole('combobox').click();
    const groups = await page.locator('[data-testid^="permission-choice-"]').allTextContents();
    assert.deepEqual(groups, ['Photographer']);
    await page.keyboard.press('Escape');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await settledScreenshot(page, '86-folder-permissions');
  });

  it('shows the photographer only that folder, read-only', async () => {
    const photographer = await openPage();
    const photographerProblems = watchProblems(photographer);
    await signIn(photographer, invitee);
    const tree = photographer.getByTestId('app-drawer').getByTestId('folder-tree');
    await tree.getByRole('button', { name: 'Assignments', exact: true }).click();
    await photographer.getByTestId('folder-not-admin').waitFor();
    assert.equal(await photographer.getByTestId('folder-add-user').count(), 0);
    await tree.getByRole('button', { name: 'Derby', exact: true }).waitFor();
    for (const hidden of ['Internal desk', 'FTP servers', 'Agency', 'Settings', 'Users', 'Config files']) {
      assert.equal(
        await tree.getByRole('button', { name: hidden, exact: true }).count(),
        0,
        `${hidden} is hidden`,
      );
    }
    // No context menu without write access.
    await tree.getByRole('button', { name: 'Derby', exact: true }).click({ button: 'right' });
    assert.equal(await photographer.getByTestId('tree-menu').getByRole('menu').count(), 0);
    assert.deepEqual(await menuEntries(photographer), []);

    await tree.getByRole('button', { name: 'Derby', exact: true }).click();
    await photographer.getByRole('heading', { name: 'Derby' }).waitFor();
    await photographer.getByTestId('project-read-only').getByText('Read only').waitFor();
    await photographer.getByTestId('ftp-access').waitFor();
    await settledScreenshot(photographer, '87-photographer-project');
    await photographer.getByTestId('project-tab-destinations').click();
    await photographer.getByTestId('destination-ftpservers').waitFor();
    assert.equal(await photographer.getByTestId('add-ftpserver-submit').count(), 0, 'no add selector');
    assert.equal(await photographer.getByTestId('add-project-submit').count(), 0);

    await photographer.goto('/users');
    await photographer.getByTestId('no-access').waitFor();
    await photographer.goto('/configfiles');
    await photographer.getByTestId('no-access').waitFor();
    await settledScreenshot(photographer, '88-photographer-no-access', { fullPage: false });
    assert.deepEqual(photographerProblems.errors, []);
  });

  it('had no uncaught errors in the page', () => {
    assert.deepEqual(problems.errors, []);
  });
});
