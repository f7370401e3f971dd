import { JOB_CALLS, jobInfoEntity, entityCalls } from '@shuili/contract';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  chooseOption,
  DEMO_ADMIN,
  startConsole,
  waitForPath,
  type ConsoleRig,
} from '@shuili/test-support/console';
import { api, form, idsWhere, signedIn, view } from './admin-console';

/**
 * The job scheduler's screens (issue 22) in Chromium against the real server and its job
 * runner, as the demo's administrator: a CRON job made in the job form (its next five trigger
 * times shown while typing, its processor's parameter form), its instances appearing on
 * /taskinstance with the secondly-job note, an instance's details with its log, a run by hand,
 * stopping and retrying an instance that waits for a node, and the nodes on /appmonitor.
 */
const JOBS = '/jobinfo';
const INSTANCES = '/taskinstance';
const JOB_CALLS_OF = entityCalls(jobInfoEntity);
const CRON = '0/5 * * * * ?';

let rig: ConsoleRig;
let page: Page;
const name = `e2e digest ${Date.now()}`;
let jobId: string;

beforeAll(async () => {
  rig = await startConsole();
  page = await signedIn(rig, DEMO_ADMIN);
  await page.setViewportSize({ width: 1400, height: 900 });
});

afterAll(async () => {
  await rig?.close();
});

/** The rows of the instance list now shown. */
const instanceRows = () =>
  view(page, INSTANCES).locator('[data-testid="resource-table"] tbody tr.ant-table-row');

it('makes a CRON job in the job form, showing its next five trigger times', async () => {
  await page.goto(JOBS);
  const screen = view(page, JOBS);
  await screen.getByTestId('resource-add').click();
  const dialog = form(page);
  await dialog.waitFor();
  for (const section of ['basic', 'schedule', 'execute', 'limits', 'alarm'])
    await dialog.getByTestId(`job-section-${section}`).waitFor();

  // Spec §5: name, time expression type and processor are required.
  await dialog.getByTestId('resource-form-submit').click();
  await expect
    .poll(() => dialog.locator('.ant-form-item-explain-error').allInnerTexts())
    .toEqual(
      expect.arrayContaining([
        'Job name is required',
        'Choose a time expression type',
        'Choose a processor',
      ]),
    );

  await dialog.locator('#form-JobInfo_jobName').fill(name);
  await chooseOption(page, dialog.getByTestId('job-time-type'), 'CRON');
  const expression = dialog.getByTestId('job-time-expression');
  // A wrong expression is named before any call: both day fields given.
  await expression.fill('0 0 2 * * *');
  await expect
    .poll(() => dialog.locator('.ant-form-item-explain-error').allInnerTexts())
    .toContain('Exactly one of day-of-month and day-of-week must be ?');
  await expect.poll(() => dialog.getByTestId('job-next-times-error').count()).toBe(1);

  await expression.fill(CRON);
  const times = dialog.getByTestId('job-next-time');
  await expect.poll(() => times.count()).toBe(5);
  const texts = await times.allInnerTexts();
  for (const text of texts) expect(text).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d[05]$/);
  expect(new Set(texts).size).toBe(5);
  expect([...texts].sort()).toEqual(texts);

  // The processor's own parameters, from its declaration, with its defaults.
  await chooseOption(page, dialog.getByTestId('job-processor'), 'Alarm digest');
  const params = dialog.getByTestId('job-params-form');
  await expect.poll(() => params.getAttribute('data-processor')).toBe('alarmDigest');
  const hours = dialog.getByTestId('job-param-hours').locator('input');
  expect(await hours.inputValue()).toBe('24');
  await hours.fill('6');
  await dialog.getByTestId('job-param-openOnly').locator('.ant-switch').click();

  const saved = page.waitForResponse((response) => response.url().includes(JOB_CALLS_OF.add));
  await dialog.getByTestId('resource-form-submit').click();
  expect((await saved).status()).toBe(200);
  await dialog.waitFor({ state: 'detached' });

  jobId = (await idsWhere(page, JOB_CALLS_OF.query, 'jobName', [name]))[0]!;
  expect(jobId).toBeTruthy();
  const { body } = await api(
    page,
    'GET',
    `${JOB_CALLS_OF.query}?jobName=${encodeURIComponent(name)}`,
  );
  const job = (body.data.list as Array<Record<string, unknown>>).find((row) => row.id === jobId)!;
  expect(job.timeExpression).toBe(CRON);
  expect(JSON.parse(String(job.jobParams))).toEqual({ hours: 6, openOnly: true });
  await expect.poll(() => screen.getByText(name).count()).toBe(1);
});

it('edits the job: the form reads its parameters back, and saves what changed', async () => {
  const screen = view(page, JOBS);
  await screen.locator('tr', { hasText: name }).getByTestId('row-edit').click();
  const dialog = form(page);
  await dialog.waitFor();
  expect(await dialog.getByTestId('job-time-expression').inputValue()).toBe(CRON);
  await expect.poll(() => dialog.getByTestId('job-next-time').count()).toBe(5);
  const hours = dialog.getByTestId('job-param-hours').locator('input');
  expect(await hours.inputValue()).toBe('6');
  expect(
    await dialog
      .getByTestId('job-param-openOnly')
      .locator('.ant-switch')
      .getAttribute('aria-checked'),
  ).toBe('true');
  await hours.fill('8');
  const saved = page.waitForResponse((response) => response.url().includes(JOB_CALLS_OF.update));
  await dialog.getByTestId('resource-form-submit').click();
  const request = (await saved).request();
  expect(request.postDataJSON()).toEqual({ id: jobId, jobParams: '{"hours":8,"openOnly":true}' });
  await dialog.waitFor({ state: 'detached' });
});

it('lists the job’s instances as they run, noting a secondly job keeps its last ten', async () => {
  const row = view(page, JOBS).locator('tr', { hasText: name });
  await row.getByTestId('job-row-instances').click();
  await waitForPath(page, `${INSTANCES}?jobId=${jobId}`);
  const screen = view(page, INSTANCES);
  await screen.getByTestId('instance-secondly-note').waitFor();
  expect(await screen.getByTestId('instance-secondly-note').innerText()).toContain('last 10');
  // Every five seconds an instance: the live list shows them without a reload.
  await expect.poll(() => instanceRows().count(), { timeout: 30_000 }).toBeGreaterThanOrEqual(2);
  await expect
    .poll(() => instanceRows().getByTestId('instance-status').first().getAttribute('data-status'), {
      timeout: 30_000,
    })
    .toMatch(/SUCCEED|FAILED|RUNNING|WAITING/);
});

it('opens an instance’s details with its log', async () => {
  const screen = view(page, INSTANCES);
  // An ended one: its log is complete.
  const ended = instanceRows().filter({
    has: page.locator('[data-status="SUCCEED"], [data-status="FAILED"]'),
  });
  await expect.poll(() => ended.count(), { timeout: 30_000 }).toBeGreaterThan(0);
  await ended.first().getByTestId('instance-row-detail').click();
  const drawer = page.getByTestId('instance-detail');
  await drawer.getByTestId('instance-detail-fields').waitFor();
  expect(await drawer.getByTestId('instance-detail-fields').innerText()).toContain(name);
  await expect.poll(() => drawer.getByTestId('instance-log-line').count()).toBeGreaterThan(0);
  await drawer.locator('.ant-drawer-close').click();
  await drawer.waitFor({ state: 'hidden' });
  expect(await screen.getByTestId('instance-missing').count()).toBe(0);
});

it('says no instance was generated where there is none (spec §8)', async () => {
  await page.goto(`${INSTANCES}?instanceId=999999999`);
  const drawer = page.getByTestId('instance-detail');
  await expect
    .poll(() =>
      drawer
        .getByTestId('instance-missing')
        .innerText()
        .catch(() => ''),
    )
    .toBe('no task instance generated, cannot view details');
  await drawer.locator('.ant-drawer-close').click();
});

it('runs a job by hand and links to the instance made', async () => {
  // The CRON job stops firing: only the run by hand makes an instance from here on.
  const disabled = await api(page, 'POST', JOB_CALLS_OF.status, { ids: [jobId], status: 0 });
  expect(disabled.status).toBe(200);
  const manual = await api(page, 'POST', JOB_CALLS_OF.add, {
    jobName: `${name} by hand`,
    timeExpressionType: 'API',
    executeType: 'STANDALONE',
    processorType: 'alarmDigest',
    jobParams: '{"hours":1}',
    status: 1,
  });
  expect(manual.status).toBe(200);
  await page.goto(JOBS);
  const screen = view(page, JOBS);
  const row = screen.locator('tr', { hasText: `${name} by hand` });
  await row.getByTestId('job-row-run').click();
  await page.getByTestId('job-run-params').fill('{"note":"by hand"}');
  const ran = page.waitForResponse((response) => response.url().includes(JOB_CALLS.runJob));
  await page.getByTestId('job-run-ok').click();
  const answer = await (await ran).json();
  expect(answer.data.instanceId).toMatch(/^\d+$/);
  const toast = page.getByTestId('job-run-done');
  await toast.waitFor();
  await toast.locator('a').click();
  await waitForPath(
    page,
    new RegExp(`^${INSTANCES}\\?jobId=\\d+&instanceId=${answer.data.instanceId}$`),
  );
  const drawer = page.getByTestId('instance-detail');
  const fields = drawer.getByTestId('instance-detail-fields');
  await expect.poll(() => fields.innerText().catch(() => '')).toContain('{"note":"by hand"}');
  expect(await fields.innerText()).toContain('API / by hand');
  await expect
    .poll(() => fields.getByTestId('instance-status').getAttribute('data-status'), {
      timeout: 30_000,
    })
    .toBe('SUCCEED');
  await drawer.locator('.ant-drawer-close').click();
});

it('stops an instance that waits for a node, then retries it', async () => {
  // No node has 256 free CPU cores: its instance waits (up to a minute) for one.
  const made = await api(page, 'POST', JOB_CALLS_OF.add, {
    jobName: `${name} waits`,
    timeExpressionType: 'API',
    executeType: 'STANDALONE',
    processorType: 'alarmDigest',
    jobParams: '{}',
    minCpuCores: 256,
    status: 1,
  });
  expect(made.status).toBe(200);
  const [waitingJob] = await idsWhere(page, JOB_CALLS_OF.query, 'jobName', [`${name} waits`]);
  const run = await api(page, 'POST', JOB_CALLS.runJob, { id: waitingJob });
  expect(run.status).toBe(200);
  await page.goto(`${INSTANCES}?jobId=${waitingJob}`);
  const screen = view(page, INSTANCES);
  await expect.poll(() => instanceRows().count()).toBe(1);
  expect(await screen.getByTestId('instance-secondly-note').count()).toBe(0);
  await instanceRows().first().getByTestId('instance-row-stop').click();
  await page.getByTestId('instance-stop-confirm').click();
  await expect
    .poll(() => instanceRows().first().getByTestId('instance-status').getAttribute('data-status'))
    .toBe('STOPPED');
  // Stopped: no stop any more, a retry instead, which sets it waiting again.
  expect(await instanceRows().first().getByTestId('instance-row-stop').count()).toBe(0);
  await instanceRows().first().getByTestId('instance-row-retry').click();
  await page.getByTestId('instance-retry-confirm').click();
  await expect
    .poll(() => instanceRows().first().getByTestId('instance-status').getAttribute('data-status'))
    .toMatch(/^WAITING/);
  const stopped = await api(page, 'POST', JOB_CALLS.stopInstance, {
    id: run.body.data.instanceId,
  });
  expect(stopped.status).toBe(200);
});

it('shows the server nodes on /appmonitor', async () => {
  await page.goto('/appmonitor');
  const screen = view(page, '/appmonitor');
  const table = screen.getByTestId('nodes-table');
  await expect.poll(() => table.getByTestId('node-alive').count()).toBeGreaterThanOrEqual(1);
  const { body } = await api(page, 'GET', JOB_CALLS.queryNodes);
  const nodes = body.data as Array<{ address: string; alive: boolean }>;
  expect(nodes.length).toBeGreaterThanOrEqual(1);
  expect(await table.innerText()).toContain(nodes[0]!.address);
  expect(await screen.getByTestId('nodes-alive-count').innerText()).toMatch(
    /\b[1-9]\d*\s*\/\s*\d+/,
  );
  expect(await table.innerText()).toMatch(/just now|seconds? ago|minute ago/);
});

it('speaks zh and tw on the job screens, the spec §8 text included', async () => {
  const cases = [
    {
      locale: 'zh-CN',
      sections: ['基本信息', '定时信息', '执行配置'],
      missing: '没有生成任务实例，无法查看详情',
      nodes: '在线节点',
    },
    {
      locale: 'zh-TW',
      sections: ['基本資訊', '定時資訊', '執行配置'],
      missing: '沒有產生任務實例，無法查看詳情',
      nodes: '在線節點',
    },
  ];
  for (const { locale, sections, missing, nodes } of cases) {
    const local = await signedIn(rig, DEMO_ADMIN, locale);
    const keys: string[] = [];
    local.on('console', (message) => {
      if (message.text().startsWith('i18n: missing key ')) keys.push(message.text());
    });
    await local.goto(JOBS);
    await view(local, JOBS).getByTestId('resource-add').click();
    const dialog = form(local);
    await dialog.waitFor();
    for (const section of sections) await dialog.getByText(section, { exact: true }).waitFor();
    await chooseOption(local, dialog.getByTestId('job-time-type'), 'CRON');
    await dialog.getByTestId('job-time-expression').fill('0 0 2 * * ?');
    await expect.poll(() => dialog.getByTestId('job-next-time').count()).toBe(5);
    await local.goto(`${INSTANCES}?instanceId=999999999`);
    await expect
      .poll(() =>
        local
          .getByTestId('instance-missing')
          .innerText()
          .catch(() => ''),
      )
      .toBe(missing);
    await local.goto('/appmonitor');
    await view(local, '/appmonitor').getByText(nodes).waitFor();
    expect(keys, locale).toEqual([]);
    await local.context().close();
  }
});
