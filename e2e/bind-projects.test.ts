import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, idsWhere, signedIn, view } from './admin-console';
import {
  DEMO_ADMIN,
  DEMO_OPERATOR,
  startConsole,
  type ConsoleRig,
} from '@shuili/test-support/console';

let rig: ConsoleRig;

beforeAll(async () => {
  rig = await startConsole();
});

afterAll(async () => {
  await rig?.close();
});

/**
 * Spec §7 bindUserProject from the Users screen: the row's "Projects" action lists the tenant's
 * projects with the user's checked; saving confines the user's devices to them at once.
 */
describe('binding a user to projects on the Users screen', () => {
  it('binds the operator to a project without devices, then unbinds: the device list follows', async () => {
    const admin = await signedIn(rig, DEMO_ADMIN);
    const operator = await signedIn(rig, DEMO_OPERATOR);
    const devices = async () =>
      (await api(operator, 'GET', '/api/iot/device/queryIotDevice?pageSize=1')).body.data
        .total as number;
    const everything = await devices();
    expect(everything).toBeGreaterThan(0);

    const added = await api(admin, 'POST', '/api/iot/project/addIotProject', {
      projectNo: 'E2E-BIND',
      projectName: 'E2E empty project',
    });
    expect(added.status).toBe(200);
    const projectId = String(added.body.data.id);
    const [operatorId] = await idsWhere(admin, '/api/admin/sysuser/querySysUser', 'username', [
      'operator',
    ]);

    const bindThroughScreen = async (check: boolean) => {
      await admin.goto('/admin/sysuser');
      const list = view(admin, '/admin/sysuser');
      const row = list.locator('.ant-table-row', { hasText: 'operator' }).first();
      await row.waitFor();
      await row.getByTestId('row-projects').click();
      const dialog = admin.getByTestId('bind-projects-dialog');
      const option = dialog.getByRole('checkbox', { name: /E2E empty project \(E2E-BIND\)/ });
      await option.waitFor();
      expect(await option.isChecked()).toBe(!check);
      await option.click();
      const saved = admin.waitForResponse((response) =>
        response.url().includes('/api/admin/sysuser/bindUserProject'),
      );
      await admin.getByTestId('bind-projects-save').click();
      const answer = await saved;
      expect(answer.status()).toBe(200);
      expect(answer.request().postDataJSON()).toEqual({
        userId: operatorId,
        projectIds: check ? [projectId] : [],
      });
      await dialog.waitFor({ state: 'hidden' });
    };

    await bindThroughScreen(true);
    expect(await devices()).toBe(0);
    await bindThroughScreen(false);
    expect(await devices()).toBe(everything);
  });
});
