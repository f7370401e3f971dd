import fs from 'node:fs/promises';
import ExcelJS from 'exceljs';
import JSZip from 'jszip';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import type { Download, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  api,
  form,
  idsWhere,
  PLATFORM_ADMIN,
  signedIn,
  sidebarLabels,
  view,
  visibleOption,
} from './admin-console';
import {
  chooseOption,
  DEMO_ADMIN,
  DEMO_OPERATOR,
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

/** A node of a checkable tree by its exact title. */
const treeNode = (scope: Locator, title: string) =>
  scope.locator('.ant-tree-treenode', {
    has: scope.page().locator('.ant-tree-title', { hasText: new RegExp(`^${title}$`) }),
  });

/** Opens a route and waits for its table's first row. */
async function openList(page: Page, path: string) {
  await page.goto(path);
  const list = view(page, path);
  await list.locator('.ant-table-row').first().waitFor();
  return list;
}

/** Waits for the answer to a call whose URL contains `call`. */
const answerTo = (page: Page, call: string) =>
  page.waitForResponse((response) => response.url().includes(call));

interface MenuNode {
  id: string;
  menuCode: string;
  children: MenuNode[];
  buttons: Array<{ id: string; buttonCode: string }>;
}

async function menuTree(admin: Page): Promise<MenuNode[]> {
  return (await api(admin, 'GET', '/api/admin/sysmenu/querySysMenuButtonTree')).body.data;
}

function findMenu(nodes: MenuNode[], code: string): MenuNode | undefined {
  for (const node of nodes) {
    if (node.menuCode === code) return node;
    const found = findMenu(node.children, code);
    if (found) return found;
  }
  return undefined;
}

async function operatorRoleId(admin: Page): Promise<string> {
  const [id] = await idsWhere(admin, '/api/admin/sysrole/querySysRole', 'roleCode', [
    'ROLE_OPERATOR',
  ]);
  return id!;
}

/**
 * Adds grants to ROLE_OPERATOR through the API, keeping what it holds: menus (with their
 * parents), buttons and URLs.
 */
async function grantOperator(
  admin: Page,
  grants: { menus?: string[]; buttons?: string[]; urls?: string[] },
) {
  const roleId = await operatorRoleId(admin);
  const tree = await menuTree(admin);
  if (grants.menus) {
    const held: string[] = (
      await api(admin, 'GET', `/api/admin/sysmenu/queryMenuIdByRoleId?roleId=${roleId}`)
    ).body.data;
    const ids = new Set(held);
    const walk = (nodes: MenuNode[], path: string[]) => {
      for (const node of nodes) {
        if (grants.menus!.includes(node.menuCode)) [...path, node.id].forEach((id) => ids.add(id));
        walk(node.children, [...path, node.id]);
      }
    };
    walk(tree, []);
    const saved = await api(admin, 'POST', '/api/admin/sysmenu/authorizeMenuToRole', {
      roleId,
      menuIds: [...ids],
    });
    expect(saved.status).toBe(200);
  }
  if (grants.buttons) {
    const held: string[] = (
      await api(admin, 'GET', '/api/admin/sysmenu/queryMenuButtonByRoleCode?roleCode=ROLE_OPERATOR')
    ).body.data;
    const all = new Map<string, string>();
    const walk = (nodes: MenuNode[]) =>
      nodes.forEach((node) => {
        node.buttons.forEach((button) => all.set(button.buttonCode, button.id));
        walk(node.children);
      });
    walk(tree);
    const ids = new Set([...held, ...grants.buttons.map((code) => all.get(code)!)]);
    const saved = await api(admin, 'POST', '/api/admin/sysmenu/authorizeMenuButtonToRole', {
      roleId,
      buttonIds: [...ids],
    });
    expect(saved.status).toBe(200);
  }
  if (grants.urls) {
    const held: string[] = (
      await api(admin, 'GET', `/api/admin/sysurl/queryUrlIdByRoleId?roleId=${roleId}`)
    ).body.data;
    const wanted = await idsWhere(admin, '/api/admin/sysurl/querySysUrl', 'url', grants.urls);
    expect(wanted).toHaveLength(grants.urls.length);
    const saved = await api(admin, 'POST', '/api/admin/sysurl/authorizeUrlToRole', {
      roleId,
      urlIds: [...new Set([...held, ...wanted])],
    });
    expect(saved.status).toBe(200);
  }
}

/** The error texts shown under the entity form's field. */
function fieldErrors(page: Page, entity: string, name: string) {
  return form(page)
    .locator('.ant-form-item', { has: page.locator(`#form-${entity}_${name}`) })
    .locator('.ant-form-item-explain-error');
}

async function expectFieldError(page: Page, entity: string, name: string, text: string) {
  await fieldErrors(page, entity, name).filter({ hasText: text }).waitFor();
}

/** The column titles of a list. */
async function headers(list: Locator): Promise<string[]> {
  const texts = await list.locator('.ant-table-thead th').allInnerTexts();
  return texts.map((text) => text.trim()).filter(Boolean);
}

/** Chooses a format in a list's export menu and answers the file the browser saved. */
async function exportAs(page: Page, list: Locator, format: string) {
  await list.getByTestId('resource-export').click();
  const download = page.waitForEvent('download');
  await page.locator('.ant-dropdown-menu-item:visible', { hasText: format }).click();
  return download;
}

async function bytesOf(download: Download): Promise<Buffer> {
  return fs.readFile(await download.path());
}

async function xlsxRows(buffer: Buffer): Promise<string[][]> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(buffer as unknown as ExcelJS.Buffer);
  const sheet = workbook.worksheets[0]!;
  const rows: string[][] = [];
  sheet.eachRow((row) => {
    const cells: string[] = [];
    row.eachCell({ includeEmpty: true }, (cell) => {
      cells.push(cell.value === null ? '' : String(cell.value));
    });
    rows.push(cells);
  });
  return rows;
}

async function pdfText(buffer: Buffer): Promise<string> {
  const pdf = await getDocument({ data: new Uint8Array(buffer), verbosity: 0 }).promise;
  const pages: string[] = [];
  for (let number = 1; number <= pdf.numPages; number += 1) {
    const content = await (await pdf.getPage(number)).getTextContent();
    pages.push(content.items.map((item) => ('str' in item ? item.str : '')).join(''));
  }
  return pages.join('\n');
}

async function addParam(admin: Page, paramKey: string, paramName: string, paramValue: string) {
  const added = await api(admin, 'POST', '/api/admin/sysparam/addSysParam', {
    paramKey,
    paramName,
    paramValue,
  });
  expect(added.status).toBe(200);
}

/** Filters the parameters list by key and waits for its answer. */
async function searchParams(page: Page, list: Locator, paramKey: string) {
  await list.locator('#search-SysParam_paramKey').fill(paramKey);
  const answered = answerTo(page, '/querySysParam?');
  await list.getByTestId('resource-search-submit').click();
  return (await answered).json();
}

describe('administration screens in the browser (issue 4)', () => {
  it('authorises ROLE_OPERATOR with the Users screen and its list URL through the drawer', async () => {
    const admin = await signedIn(rig, DEMO_ADMIN);
    const tree = await menuTree(admin);
    const adminGroup = findMenu(tree, 'admin')!;
    const usersMenu = findMenu(tree, 'sysuser')!;
    const [listUrl] = await idsWhere(admin, '/api/admin/sysurl/querySysUrl', 'url', [
      '/api/admin/sysuser/querySysUser',
    ]);

    const roles = await openList(admin, '/authority/sysrole');
    await roles
      .locator('.ant-table-row', { hasText: 'ROLE_OPERATOR' })
      .getByTestId('row-role-authorize')
      .click();
    const drawer = admin.locator('.ant-drawer', { hasText: 'Authorise role: Operator' });
    const menus = drawer.getByTestId('grant-menus');
    await menus.waitFor();
    const usersNode = treeNode(menus, 'Users');
    // Not granted yet.
    expect(await usersNode.locator('.ant-tree-checkbox-checked').count()).toBe(0);
    await usersNode.locator('.ant-tree-checkbox').click();
    await usersNode.locator('.ant-tree-checkbox-checked').waitFor();
    // The group above it is half-checked, not checked.
    await treeNode(menus, 'System admin').locator('.ant-tree-checkbox-indeterminate').waitFor();
    const menusSaved = answerTo(admin, '/api/admin/sysmenu/authorizeMenuToRole');
    await menus.getByTestId('grant-menus-save').click();
    const menuAnswer = await menusSaved;
    expect(menuAnswer.status()).toBe(200);
    const menuBody = menuAnswer.request().postDataJSON() as { roleId: string; menuIds: string[] };
    expect(menuBody.menuIds).toContain(usersMenu.id);
    expect(menuBody.menuIds).toContain(adminGroup.id);
    // Only the checked screen and its group were added, not the group's other screens.
    expect(menuBody.menuIds).not.toContain(findMenu(tree, 'sysrole')!.id);
    expect(menuBody.menuIds).not.toContain(findMenu(tree, 'sysparam')!.id);

    await drawer.getByRole('tab', { name: 'API URLs' }).click();
    const urls = drawer.getByTestId('grant-urls');
    await urls.waitFor();
    await urls.getByTestId('grant-urls-search').locator('input').fill('sysuser/querySysUser');
    const urlRow = urls.locator('.ant-table-row', {
      has: admin.locator('td', { hasText: /^\/api\/admin\/sysuser\/querySysUser$/ }),
    });
    await urlRow.locator('.ant-checkbox-input').check();
    const urlsSaved = answerTo(admin, '/api/admin/sysurl/authorizeUrlToRole');
    await urls.getByTestId('grant-urls-save').click();
    const urlAnswer = await urlsSaved;
    expect(urlAnswer.status()).toBe(200);
    expect((urlAnswer.request().postDataJSON() as { urlIds: string[] }).urlIds).toContain(listUrl);

    const operator = await signedIn(rig, DEMO_OPERATOR);
    expect(await sidebarLabels(operator)).toContain('Users');
    const listed = answerTo(operator, '/api/admin/sysuser/querySysUser');
    await operator.getByTestId('sidebar').locator('.ant-menu-item', { hasText: 'Users' }).click();
    expect((await listed).status()).toBe(200);
    await waitForPath(operator, '/admin/sysuser');
    await view(operator, '/admin/sysuser')
      .locator('.ant-table-row', { hasText: 'operator' })
      .waitFor();
  });

  it('shows the operator only the data fields granted, in the list, its answer and its export', async () => {
    const admin = await signedIn(rig, DEMO_ADMIN);
    await grantOperator(admin, {
      menus: ['sysuser'],
      buttons: ['sysuser:export'],
      urls: ['/api/admin/sysuser/querySysUser', '/api/admin/sysuser/exportSysUser'],
    });

    // The data fields, through the authorise drawer.
    const roles = await openList(admin, '/authority/sysrole');
    await roles
      .locator('.ant-table-row', { hasText: 'ROLE_OPERATOR' })
      .getByTestId('row-role-authorize')
      .click();
    const drawer = admin.locator('.ant-drawer', { hasText: 'Authorise role: Operator' });
    await drawer.getByRole('tab', { name: 'Data fields' }).click();
    const data = drawer.getByTestId('grant-data');
    await data.waitFor();
    // Many menus (IoT among them): search the select as a user would.
    await data.locator('.ant-select').click();
    await data.locator('.ant-select input').fill('Users');
    await visibleOption(admin, 'System admin / Users').click();
    const editor = data.getByTestId('grant-data-editor');
    await editor.waitFor();
    // No rule yet: every field is ticked. Untick them all, then tick the two.
    await editor.locator('.ant-checkbox-wrapper', { hasText: 'Select all' }).click();
    const fields = editor.getByTestId('grant-data-fields');
    await fields.locator('.ant-checkbox-wrapper', { hasText: /^Username$/ }).click();
    await fields.locator('.ant-checkbox-wrapper', { hasText: /^Nickname$/ }).click();
    const saved = answerTo(admin, '/api/admin/sysmenu/authorizeMenuDataToRole');
    await editor.getByTestId('grant-data-save').click();
    const answer = await saved;
    expect(answer.status()).toBe(200);
    expect(answer.request().postDataJSON()).toEqual({
      roleCode: 'ROLE_OPERATOR',
      menuCode: 'sysuser',
      dataFields: 'username,nickname',
    });
    await data
      .getByTestId('grant-data-rules')
      .locator('.ant-table-row', { hasText: 'Users' })
      .waitFor();
    // IoT screens list data too: the device list offers its fields (its rule is not saved).
    await data.locator('.ant-select').click();
    await data.locator('.ant-select input').fill('Devices');
    await visibleOption(admin, 'IoT / Devices').click();
    await editor
      .getByTestId('grant-data-fields')
      .locator('.ant-checkbox-wrapper', { hasText: /^Device name$/ })
      .waitFor();

    // The operator's list: the two columns, and rows without the hidden fields.
    const operator = await signedIn(rig, DEMO_OPERATOR);
    const listed = answerTo(operator, '/api/admin/sysuser/querySysUser');
    await operator.goto('/admin/sysuser');
    const listAnswer = await listed;
    expect(listAnswer.status()).toBe(200);
    const rows = (await listAnswer.json()).data.list as Array<Record<string, unknown>>;
    expect(rows.length).toBeGreaterThanOrEqual(2);
    for (const row of rows) {
      expect(row).not.toHaveProperty('email');
      expect(row).not.toHaveProperty('mobile');
      expect(row).toHaveProperty('username');
    }
    const users = view(operator, '/admin/sysuser');
    await users.locator('.ant-table-row', { hasText: 'operator' }).waitFor();
    const titles = await headers(users);
    expect(titles).toEqual(expect.arrayContaining(['Username', 'Nickname']));
    expect(titles).not.toContain('Email');
    expect(titles).not.toContain('Mobile');
    expect(titles).not.toContain('Organisation');

    // The operator's export holds the same two columns.
    const file = await bytesOf(await exportAs(operator, users, 'Excel'));
    const sheet = await xlsxRows(file);
    expect(sheet[0]).toEqual(['Username', 'Nickname']);
    expect(sheet.map((row) => row[0])).toEqual(expect.arrayContaining(['admin', 'operator']));
    expect(sheet.flat().some((cell) => cell.includes('@'))).toBe(false);
  });

  it('validates the user form, in English and in Chinese, and places the 409 under the username', async () => {
    for (const [locale, words] of [
      [
        'en-US',
        {
          required: (field: string) => `${field} is required`,
          fields: ['Username', 'Nickname', 'Password', 'Organisation', 'Roles'],
          length: 'Username must be 3 to 64 characters',
          role: 'Operator',
        },
      ],
      [
        'zh-CN',
        {
          // Typed fields ask to enter, chosen ones to select.
          required: (field: string) =>
            ['组织', '角色'].includes(field) ? `请选择${field}` : `请输入${field}`,
          fields: ['用户名', '昵称', '密码', '组织', '角色'],
          length: '用户名长度须为 3 到 64 个字符',
          role: 'Operator',
        },
      ],
    ] as const) {
      const admin = await signedIn(rig, DEMO_ADMIN, locale);
      const users = await openList(admin, '/admin/sysuser');
      await users.getByTestId('resource-add').click();
      let sent = 0;
      const count = (request: { url(): string }) => {
        if (request.url().includes('/addSysUser')) sent += 1;
      };
      admin.on('request', count);
      await form(admin).getByTestId('resource-form-submit').click();
      const names = ['username', 'nickname', 'password', 'orgId', 'roleIds'];
      for (const [index, name] of names.entries()) {
        await expectFieldError(admin, 'SysUser', name, words.required(words.fields[index]!));
      }
      await form(admin).locator('#form-SysUser_username').fill('ab');
      await expectFieldError(admin, 'SysUser', 'username', words.length);
      expect(sent).toBe(0);
      admin.off('request', count);

      // A taken username: the server's 409, under the field.
      await form(admin).locator('#form-SysUser_username').fill('admin');
      await form(admin).locator('#form-SysUser_nickname').fill('Duplicate');
      await form(admin).locator('#form-SysUser_password').fill('secret123');
      await form(admin).locator('#form-SysUser_orgId').click();
      await admin.locator('.ant-select-dropdown:visible .ant-select-tree-title').first().click();
      await form(admin).locator('#form-SysUser_roleIds').click();
      await visibleOption(admin, words.role).click();
      await admin.keyboard.press('Escape');
      await fieldErrors(admin, 'SysUser', 'roleIds').waitFor({ state: 'detached' });
      const answered = answerTo(admin, '/addSysUser');
      await form(admin).getByTestId('resource-form-submit').click();
      const answer = await answered;
      expect(answer.status()).toBe(409);
      const message = ((await answer.json()) as { message: string }).message;
      expect(message).toBeTruthy();
      await expectFieldError(admin, 'SysUser', 'username', message.split(': ').at(-1)!);
      if (locale === 'zh-CN') expect(message).toMatch(/[\u4e00-\u9fff]/);
      else expect(message).toContain('already used');
      // The dialog stays open for another try.
      expect(await form(admin).isVisible()).toBe(true);
    }
  });

  it('edit waits for one checked row, delete for a selection and confirms the count, then the rows are gone', async () => {
    const admin = await signedIn(rig, DEMO_ADMIN);
    await addParam(admin, 'e2e.batch.one', 'Batch one', '1');
    await addParam(admin, 'e2e.batch.two', 'Batch two', '2');
    const params = await openList(admin, '/admin/sysparam');
    const found = await searchParams(admin, params, 'e2e.batch');
    expect(found.data.total).toBe(2);
    const rows = params.locator('.ant-table-row', { hasText: 'e2e.batch.' });
    await expect.poll(() => rows.count()).toBe(2);

    const edit = params.getByTestId('resource-edit');
    const remove = params.getByTestId('resource-delete');
    // Nothing checked: both wait, and say what they wait for.
    expect(await edit.isDisabled()).toBe(true);
    expect(await remove.isDisabled()).toBe(true);
    expect(await remove.getAttribute('title')).toBe('Select at least one record');

    await rows.nth(0).locator('.ant-checkbox-input').check();
    await expect.poll(() => edit.isEnabled()).toBe(true);
    expect(await remove.isEnabled()).toBe(true);
    await rows.nth(1).locator('.ant-checkbox-input').check();
    // Two rows: one cannot edit both.
    await expect.poll(() => edit.isDisabled()).toBe(true);
    expect(await edit.getAttribute('title')).toBe('Select exactly one record');

    await params.getByTestId('resource-delete').click();
    const confirm = admin.locator('.ant-modal-confirm', { hasText: 'Delete records' });
    await confirm.waitFor();
    expect(await confirm.innerText()).toContain('Delete the selected records (2)?');
    const deleted = answerTo(admin, '/deleteSysParam');
    await admin.getByTestId('resource-delete-confirm').click();
    const answer = await deleted;
    expect(answer.status()).toBe(200);
    expect(decodeURIComponent(answer.url()).split('id=')[1]!.split(',')).toHaveLength(2);
    await admin.locator('.ant-message-success', { hasText: 'Deleted: 2' }).waitFor();
    await rows.first().waitFor({ state: 'detached' });
    expect(
      await idsWhere(admin, '/api/admin/sysparam/querySysParam', 'paramKey', [
        'e2e.batch.one',
        'e2e.batch.two',
      ]),
    ).toEqual([]);
  });

  it('exports the filtered rows as xlsx, docx, pdf and csv', async () => {
    const admin = await signedIn(rig, DEMO_ADMIN);
    await addParam(admin, 'e2e.export.gate', 'East gate opening', 'gate-7-open-40');
    await addParam(admin, 'e2e.export.other', 'Other setting', 'not-this-one');
    const params = await openList(admin, '/admin/sysparam');
    const found = await searchParams(admin, params, 'e2e.export.gate');
    expect(found.data.total).toBe(1);
    await expect.poll(() => params.locator('.ant-table-row').count()).toBe(1);

    const xlsx = await exportAs(admin, params, 'Excel');
    expect(xlsx.suggestedFilename()).toMatch(/\.xlsx$/);
    const sheet = await xlsxRows(await bytesOf(xlsx));
    expect(sheet).toHaveLength(2);
    expect(sheet[1]).toEqual(expect.arrayContaining(['East gate opening', 'e2e.export.gate']));

    const docx = await exportAs(admin, params, 'Word');
    expect(docx.suggestedFilename()).toMatch(/\.docx$/);
    const zip = await JSZip.loadAsync(await bytesOf(docx));
    const document = await zip.file('word/document.xml')!.async('string');
    expect(document).toContain('e2e.export.gate');
    expect(document).toContain('gate-7-open-40');
    expect(document).not.toContain('e2e.export.other');

    const pdf = await exportAs(admin, params, 'PDF');
    expect(pdf.suggestedFilename()).toMatch(/\.pdf$/);
    const text = await pdfText(await bytesOf(pdf));
    expect(text).toContain('e2e.export.gate');
    expect(text).not.toContain('e2e.export.other');

    const csv = await exportAs(admin, params, 'CSV');
    expect(csv.suggestedFilename()).toMatch(/\.csv$/);
    const lines = (await bytesOf(csv))
      .toString('utf8')
      .replace(/^\uFEFF/, '')
      .split(/\r?\n/)
      .filter(Boolean);
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain('e2e.export.gate');
    expect(lines[1]).toContain('gate-7-open-40');
  });

  it('loads the region tree a level at a time; only the platform may change regions', async () => {
    const admin = await signedIn(rig, DEMO_ADMIN);
    const roots = answerTo(admin, 'querySysRegionTree');
    await admin.goto('/admin/sysregion');
    expect(new URL((await roots).url()).searchParams.get('parentId')).toBe('');
    const regions = view(admin, '/admin/sysregion');
    await regions.locator('.ant-table-row', { hasText: '北京市' }).first().waitFor();
    await admin
      .locator('.ant-pagination-total-text:visible')
      .filter({ hasText: '34 in all' })
      .waitFor();
    // Provinces only until one is expanded.
    expect(await regions.locator('.ant-table-row', { hasText: '广州市' }).count()).toBe(0);

    const guangdong = regions.locator('.ant-table-row', { hasText: '广东省' });
    if ((await guangdong.count()) === 0) {
      await regions.locator('.ant-pagination-item', { hasText: /^2$/ }).click();
    }
    const cities = admin.waitForResponse((response) =>
      response.url().includes('querySysRegionTree?parentId=440000'),
    );
    await guangdong.locator('.ant-table-row-expand-icon').click();
    expect((await cities).status()).toBe(200);
    await regions.locator('.ant-table-row', { hasText: '广州市' }).waitFor();
    await regions.locator('.ant-table-row', { hasText: '深圳市' }).waitFor();

    // Shared reference data: a tenant's administrator reads it only.
    for (const testId of [
      'resource-add',
      'resource-edit',
      'resource-delete',
      'row-edit',
      'row-delete',
      'row-add-child',
    ]) {
      expect(await regions.getByTestId(testId).count(), testId).toBe(0);
    }

    const platform = await signedIn(rig, PLATFORM_ADMIN);
    const platformRegions = await openList(platform, '/admin/sysregion');
    await platformRegions.getByTestId('resource-add').waitFor();
    expect(await platformRegions.getByTestId('row-edit').count()).toBeGreaterThan(0);
  });

  it('assigns a new zone to the operator, whose current zones then hold it', async () => {
    const operator = await signedIn(rig, DEMO_OPERATOR);
    const before = await api(operator, 'GET', '/api/admin/syszone/queryCurrentZones');
    expect(before.status).toBe(200);
    expect(JSON.stringify(before.body.data)).not.toContain('E2E canal zone');

    const admin = await signedIn(rig, DEMO_ADMIN);
    await admin.goto('/admin/regional');
    const zones = view(admin, '/admin/regional');
    await zones.getByTestId('resource-table').waitFor();
    await zones.getByTestId('resource-add').click();
    await form(admin).locator('#form-SysZone_zoneName').fill('E2E canal zone');
    await form(admin).locator('#form-SysZone_zoneCode').fill('E2E-CANAL');
    const added = answerTo(admin, '/addZone');
    await form(admin).getByTestId('resource-form-submit').click();
    expect((await added).status()).toBe(200);
    await zones.locator('.ant-table-row', { hasText: 'E2E canal zone' }).waitFor();
    const [zoneId] = await idsWhere(admin, '/api/admin/syszone/queryZone', 'zoneCode', [
      'E2E-CANAL',
    ]);

    await admin.goto('/admin/regionalManagement');
    const page = admin.getByTestId('regional-management-page');
    await page
      .getByTestId('zone-users-table')
      .locator('.ant-table-row', { hasText: 'operator' })
      .click();
    const assignment = admin.getByTestId('zone-assignment');
    await assignment.waitFor();
    // Zone titles hold the name and the code.
    const zoneNode = assignment.locator('.ant-tree-treenode', { hasText: 'E2E canal zone' });
    expect(await zoneNode.locator('.ant-tree-checkbox-checked').count()).toBe(0);
    await zoneNode.locator('.ant-tree-checkbox').click();
    await zoneNode.locator('.ant-tree-checkbox-checked').waitFor();
    const saved = answerTo(admin, '/api/admin/syszone/assignZone');
    await assignment.getByTestId('zone-assign-save').click();
    const answer = await saved;
    expect(answer.status()).toBe(200);
    expect(new URL(answer.url()).searchParams.get('zoneIds')?.split(',')).toContain(zoneId);

    const after = await api(operator, 'GET', '/api/admin/syszone/queryCurrentZones');
    expect(after.status).toBe(200);
    const flat = (nodes: Array<{ id: string; zoneName: string; children?: unknown[] }>): string[] =>
      nodes.flatMap((zone) => [
        zone.zoneName,
        ...flat((zone.children ?? []) as Array<{ id: string; zoneName: string }>),
      ]);
    expect(flat(after.body.data)).toContain('E2E canal zone');
  });

  it('lists the signed-in operator among online users and signs them out', async () => {
    const operator = await signedIn(rig, DEMO_OPERATOR);
    await operator.goto('/profile/index');
    await operator.getByTestId('profile-page').waitFor();

    const admin = await signedIn(rig, DEMO_ADMIN);
    await admin.goto('/admin/onlinesysuser');
    const online = admin.getByTestId('online-users-page');
    await online.getByTestId('online-search-username').fill('operator');
    const searched = answerTo(admin, '/queryOnlineSysUser?');
    await online.getByTestId('online-search').click();
    const sessions = (await (await searched).json()).data.list as Array<{ username: string }>;
    expect(sessions.length).toBeGreaterThan(0);
    expect(sessions.every((session) => session.username === 'operator')).toBe(true);
    const row = online.locator('.ant-table-row', { hasText: '(operator)' }).first();
    await row.waitFor();
    await row.getByTestId('row-sign-out').click();
    const removed = answerTo(admin, '/removePrincipal');
    await admin.getByTestId('sign-out-confirm').click();
    const answer = await removed;
    expect(answer.status()).toBe(200);
    expect((await answer.json()).data.revoked).toBeGreaterThanOrEqual(sessions.length);
    await online
      .locator('.ant-table-row', { hasText: '(operator)' })
      .first()
      .waitFor({ state: 'detached' });

    // The operator's next call is refused: the logged-out dialog of spec §8.
    await operator.getByTestId('profile-save').click();
    const dialog = operator.locator('.ant-modal-confirm', { hasText: 'You have been logged out' });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Re-Login' }).click();
    await operator.waitForURL((url) => url.pathname === '/login');
  });

  it('logs writes only, in the reader’s language; names the browser; tags only this session as You', async () => {
    // Two sessions of the same admin: each signs in with the console's own POST reads.
    await signedIn(rig, DEMO_ADMIN);
    const admin = await signedIn(rig, DEMO_ADMIN, 'zh-CN');
    await admin.getByTestId('workbench').waitFor();

    const { body } = await api(
      admin,
      'GET',
      '/api/admin/operationlog/queryOperationLog?pageSize=10000',
    );
    const urls = (body.data.list as Array<{ url: string }>).map((row) => row.url);
    expect(urls.length).toBeGreaterThan(0);
    expect(urls).not.toContain('/api/account/sysuserdetail/queryCurrentAuthority');

    // The seeded "add a post" row, found by its stored key: its action reads in Chinese.
    const log = await openList(admin, '/admin/operationlog');
    await log.locator('#search-OperationLog_action').fill('add:SysPost');
    await log.getByTestId('resource-search-submit').click();
    await log
      .getByTestId('operation-action')
      .filter({ hasText: '岗位管理 · 新增' })
      .first()
      .waitFor();

    const logins = await openList(admin, '/admin/loginlog');
    expect(await logins.getByTestId('login-client').first().innerText()).toMatch(
      /^(Headless )?Chrome \d+ · Linux$/,
    );

    await admin.goto('/admin/onlinesysuser');
    const online = admin.getByTestId('online-users-page');
    await online.getByTestId('online-search-username').fill('admin');
    const searched = answerTo(admin, '/queryOnlineSysUser?');
    await online.getByTestId('online-search').click();
    const sessions = (await (await searched).json()).data.list as Array<{ username: string }>;
    expect(sessions.filter((session) => session.username === 'admin').length).toBeGreaterThan(1);
    await expect.poll(() => online.locator('.ant-tag', { hasText: /^我$/ }).count()).toBe(1);
  });

  it('narrows the sidebar to the chosen parent menu and restores it when cleared', async () => {
    const admin = await signedIn(rig, DEMO_ADMIN);
    let full: string[] = [];
    await expect
      .poll(async () => (full = await sidebarLabels(admin)))
      .toEqual(expect.arrayContaining(['Workbench', 'Users', 'Roles']));

    const parent = admin.getByTestId('menu-switch-parent');
    await parent.click();
    const switched = answerTo(admin, '/api/account/sysuserdetail/switchMenu');
    await visibleOption(admin, /^Authority$/).click();
    const answer = await switched;
    expect(answer.status()).toBe(200);
    expect(answer.request().postDataJSON()).toMatchObject({ postCode: null });
    await expect
      .poll(() => sidebarLabels(admin))
      // The workbench is a constant route: it stays whatever the menu.
      .toEqual(['Workbench', 'Authority', 'Roles', 'URL permissions', 'Data permissions']);

    await parent.hover();
    const cleared = answerTo(admin, '/api/account/sysuserdetail/switchMenu');
    await parent.locator('.ant-select-clear').click();
    expect((await cleared).request().postDataJSON()).toEqual({ parentId: null, postCode: null });
    await expect.poll(() => sidebarLabels(admin)).toEqual(full);
  });
});

describe('entity forms (issue 17)', () => {
  const discard = (page: Page) =>
    page.locator('.ant-modal-confirm', { hasText: 'Discard changes?' });

  it('closes an unchanged form at once, asks before losing changes (Esc, a click outside), and refuses numbers out of range', async () => {
    const admin = await signedIn(rig, DEMO_ADMIN);
    const posts = await openList(admin, '/admin/syspost');
    await posts.getByTestId('resource-add').click();
    await form(admin).waitFor();
    await admin.keyboard.press('Escape');
    await form(admin).waitFor({ state: 'detached' });

    await posts.getByTestId('resource-add').click();
    await form(admin).locator('#form-SysPost_postName').fill('Sluice keeper');
    await admin.keyboard.press('Escape');
    await discard(admin).waitFor();
    await admin.getByTestId('resource-keep-editing').click();
    await discard(admin).waitFor({ state: 'detached' });
    expect(await form(admin).locator('#form-SysPost_postName').inputValue()).toBe('Sluice keeper');

    // A number out of range stays as typed and is an error; a fraction of a whole number too.
    const sequence = form(admin).locator('#form-SysPost_postSequence');
    await sequence.fill('100001');
    await sequence.blur();
    await expectFieldError(admin, 'SysPost', 'postSequence', 'between 0 and 100000');
    expect(await sequence.inputValue()).toBe('100001');
    await sequence.fill('2.5');
    await expectFieldError(admin, 'SysPost', 'postSequence', 'must be a whole number');
    expect(await sequence.inputValue()).toBe('2.5');

    // A click outside the dialog asks too; discarding closes it.
    await admin.mouse.click(8, 8);
    await discard(admin).waitFor();
    await admin.getByTestId('resource-discard').click();
    await form(admin).waitFor({ state: 'detached' });
  });

  it('keeps the add-user dialog and its buttons on a short screen and a phone', async () => {
    const admin = await signedIn(rig, DEMO_ADMIN);
    for (const size of [
      { width: 1280, height: 600 },
      { width: 390, height: 700 },
    ]) {
      await admin.setViewportSize(size);
      const users = await openList(admin, '/admin/sysuser');
      await users.getByTestId('resource-add').click();
      const save = form(admin).getByTestId('resource-form-submit');
      await save.waitFor();
      const box = (await save.boundingBox())!;
      expect(box.y + box.height, `${size.width}×${size.height}`).toBeLessThanOrEqual(size.height);
      expect(box.x + box.width).toBeLessThanOrEqual(size.width);
      await form(admin).getByRole('button', { name: 'Cancel' }).click();
      await form(admin).waitFor({ state: 'detached' });
    }
  });

  it("picks an alarm rule's product by code, its property from the thing model, and shows only the thresholds the condition uses", async () => {
    const admin = await signedIn(rig, DEMO_ADMIN);
    const rules = view(admin, '/iot/alarmRule');
    await admin.goto('/iot/alarmRule');
    await rules.getByTestId('resource-add').click();
    await form(admin).waitFor();
    const property = form(admin).getByTestId('alarm-rule-property');
    // No product yet: nothing to choose from.
    expect(await property.getAttribute('class')).toContain('ant-select-disabled');

    await form(admin).locator('#form-AlarmRule_productId').fill('IRR-VALVE');
    await visibleOption(admin, 'IRR-VALVE-4').click();
    await property.click();
    await visibleOption(admin, '(pressure').click();

    const shown = async () =>
      (await form(admin).locator('.ant-form-item-label label').allInnerTexts()).map((text) =>
        text.trim(),
      );
    const thresholds = ['Low', 'High', 'Rate per minute', 'No data (min)', 'Hysteresis'];
    expect((await shown()).filter((name) => thresholds.includes(name))).toEqual([]);
    const kind = form(admin).locator('.ant-select', { has: admin.locator('#form-AlarmRule_kind') });
    await chooseOption(admin, kind, 'Above high');
    await expect
      .poll(async () => (await shown()).filter((name) => thresholds.includes(name)))
      .toEqual(['High', 'Hysteresis']);
    await chooseOption(admin, kind, 'No data');
    await expect
      .poll(async () => (await shown()).filter((name) => thresholds.includes(name)))
      .toEqual(['No data (min)']);
  });
});
