import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, form, idsWhere, signedIn, sidebarLabels, view, visibleOption } from './admin-console';
import {
  DEMO_ADMIN,
  startConsole,
  waitForPath,
  type ConsoleRig,
} from '@shuili/test-support/console';

let rig: ConsoleRig;

beforeAll(async () => {
  rig = await startConsole();
});

afterAll(async () => {
  await rig?.close();
});

/** Submits the open entity form and answers the call it made. */
async function submit(page: Page, call: string) {
  const answered = page.waitForResponse((response) => response.url().includes(call));
  await form(page).getByTestId('resource-form-submit').click();
  return answered;
}

describe('administration in the browser', () => {
  it('an administrator creates a role and a user; the user sees exactly the granted menus and buttons, and a revoked URL is refused', async () => {
    const admin = await signedIn(rig, DEMO_ADMIN);

    // The role, through the roles screen.
    await admin.goto('/authority/sysrole');
    const roles = view(admin, '/authority/sysrole');
    await roles.locator('.ant-table-row').first().waitFor();
    await roles.getByTestId('resource-add').click();
    await form(admin).locator('#form-SysRole_roleCode').fill('ROLE_CLERK');
    await form(admin).locator('#form-SysRole_roleName').fill('Clerk');
    expect((await submit(admin, '/addSysRole')).status()).toBe(200);
    await roles.locator('.ant-table-row', { hasText: 'ROLE_CLERK' }).waitFor();

    // The user, through the users screen, holding that role.
    await admin.goto('/admin/sysuser');
    const users = view(admin, '/admin/sysuser');
    await users.locator('.ant-table-row').first().waitFor();
    await users.getByTestId('resource-add').click();
    const userForm = form(admin);
    await userForm.locator('#form-SysUser_username').fill('clerk');
    await userForm.locator('#form-SysUser_nickname').fill('Clerk Wang');
    await userForm.locator('#form-SysUser_password').fill('clerk123');
    await userForm.locator('#form-SysUser_orgId').click();
    await admin.locator('.ant-select-dropdown:visible .ant-select-tree-title').first().click();
    await userForm.locator('#form-SysUser_roleIds').click();
    await visibleOption(admin, 'Clerk').click();
    await admin.keyboard.press('Escape');
    const added = await submit(admin, '/addSysUser');
    expect(added.status()).toBe(200);
    await users.locator('.ant-table-row', { hasText: 'clerk' }).waitFor();

    // Grants: the users screen (its menu and parent), its add button, and its list URL only.
    const [roleId] = await idsWhere(admin, '/api/admin/sysrole/querySysRole', 'roleCode', [
      'ROLE_CLERK',
    ]);
    const tree = (await api(admin, 'GET', '/api/admin/sysmenu/querySysMenuButtonTree')).body
      .data as Array<{ id: string; menuCode: string; children: Array<Record<string, never>> }>;
    const adminGroup = tree.find((menu) => menu.menuCode === 'admin')!;
    const usersMenu = adminGroup.children.find(
      (menu: { menuCode?: string }) => menu.menuCode === 'sysuser',
    ) as unknown as { id: string; buttons: Array<{ id: string; buttonCode: string }> };
    const home = tree.find((menu) => menu.menuCode === 'home')!;
    const menuIds = [home.id, ...home.children.map((menu: { id?: string }) => menu.id!)];
    expect(
      (
        await api(admin, 'POST', '/api/admin/sysmenu/authorizeMenuToRole', {
          roleId,
          menuIds: [...menuIds, adminGroup.id, usersMenu.id],
        })
      ).status,
    ).toBe(200);
    const addButton = usersMenu.buttons.find((button) => button.buttonCode === 'sysuser:add')!;
    await api(admin, 'POST', '/api/admin/sysmenu/authorizeMenuButtonToRole', {
      roleId,
      buttonIds: [addButton.id],
    });
    const urlOf = async (url: string) =>
      (await idsWhere(admin, '/api/admin/sysurl/querySysUrl', 'url', [url]))[0]!;
    const listUrl = await urlOf('/api/admin/sysuser/querySysUser');
    const addUrl = await urlOf('/api/admin/sysuser/addSysUser');
    await api(admin, 'POST', '/api/admin/sysurl/authorizeUrlToRole', {
      roleId,
      urlIds: [listUrl, addUrl],
    });

    // The clerk signs in: exactly the workbench (home's only child shows alone) and
    // System admin > Users.
    const clerk = await signedIn(rig, {
      tenantCode: 'demo',
      username: 'clerk',
      password: 'clerk123',
    });
    expect(await sidebarLabels(clerk)).toEqual(['Workbench', 'System admin', 'Users']);
    await clerk.goto('/admin/sysuser');
    const clerkUsers = view(clerk, '/admin/sysuser');
    await clerkUsers.locator('.ant-table-row', { hasText: 'clerk' }).waitFor();
    expect(await clerkUsers.getByTestId('resource-add').count()).toBe(1);
    expect(await clerkUsers.getByTestId('resource-delete').count()).toBe(0);
    expect(await clerkUsers.getByTestId('resource-edit').count()).toBe(0);
    // A screen not granted is not there at all.
    await clerk.goto('/authority/sysrole');
    await waitForPath(clerk, '/404');
    // The server refuses what the clerk was not granted, whatever the browser shows.
    expect((await api(clerk, 'GET', '/api/admin/sysrole/querySysRole')).status).toBe(403);

    // The administrator revokes the list URL: the clerk's next load is refused with a message.
    await api(admin, 'POST', '/api/admin/sysurl/authorizeUrlToRole', {
      roleId,
      urlIds: [addUrl],
    });
    const refused = clerk.waitForResponse((response) => response.url().includes('/querySysUser'));
    await clerk.goto('/admin/sysuser');
    expect((await refused).status()).toBe(403);
    await clerk
      .locator('.ant-message-notice', { hasText: 'You do not have permission to do this' })
      .waitFor();
  });

  it('a tenant created by the platform administrator can sign in at once', async () => {
    const platform = await signedIn(rig, {
      tenantCode: 'platform',
      username: 'admin',
      password: 'admin123',
    });
    await platform.goto('/systenant');
    const tenants = view(platform, '/systenant');
    await tenants.locator('.ant-table-row').first().waitFor();
    await tenants.getByTestId('resource-add').click();
    const tenantForm = form(platform);
    await tenantForm.locator('#form-SysTenant_tenantCode').fill('riverside');
    await tenantForm.locator('#form-SysTenant_tenantName').fill('Riverside Irrigation District');
    await tenantForm.locator('#form-SysTenant_adminUsername').fill('chief');
    await tenantForm.locator('#form-SysTenant_adminPassword').fill('chief123');
    expect((await submit(platform, '/addSysTenant')).status()).toBe(200);
    await tenants.locator('.ant-table-row', { hasText: 'riverside' }).waitFor();

    const chief = await signedIn(rig, {
      tenantCode: 'riverside',
      username: 'chief',
      password: 'chief123',
    });
    expect(await sidebarLabels(chief)).toContain('Users');
    // The new tenant's administrator sees its own tenant only: no tenants screen.
    expect(await sidebarLabels(chief)).not.toContain('Tenants');
  });
});
