import http from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  entityCalls,
  JOB_CALLS,
  jobInfoEntity,
  workflowInfoEntity,
  type WfInstanceDetail,
  type WorkflowDag,
} from '@shuili/contract';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  DEMO_ADMIN,
  pathOf,
  startConsole,
  waitForPath,
  type ConsoleRig,
} from '@shuili/test-support/console';
import { api, form, idsWhere, signedIn, view } from './admin-console';

/**
 * DAG workflows in Chromium against the real server, its job runner and workflow engine (issue
 * 22), as the demo's administrator: a workflow made in the list, three job nodes drawn on the
 * editor's canvas (A → B, A → C) and saved, a cycle refused (drawn red in the console, a 400
 * naming the nodes from the server), the workflow run once, and its instance watched live as
 * each node turns from waiting through running (blue) to succeeded (green).
 */
const WORKFLOWS = '/workflowinfo';
const EDITOR = '/workfloweditor';
const DETAILS = '/workflowinstancedetails';
const JOBS = entityCalls(jobInfoEntity);
const WORKFLOW_CALLS = entityCalls(workflowInfoEntity);
/** Each node's webhook answers after this long: time enough to see it running. */
const HOOK_DELAY_MS = 2_500;
const GREEN = 'rgb(82, 196, 26)';

let rig: ConsoleRig;
let page: Page;
let hook: http.Server;
let hookUrl: string;
const stamp = Date.now().toString(36);
const wfName = `e2e wf ${stamp}`;
const jobNames = ['A', 'B', 'C'].map((letter) => `e2e wf job ${letter} ${stamp}`);
let workflowId: string;
let wfInstanceId: string;

beforeAll(async () => {
  // The jobs' webhooks call this service on the loopback, which the server is told to allow.
  hook = http.createServer((request, response) => {
    request.resume();
    setTimeout(() => response.writeHead(200).end('{"ok":true}'), HOOK_DELAY_MS);
  });
  await new Promise<void>((resolve) => hook.listen(0, '127.0.0.1', resolve));
  hookUrl = `http://127.0.0.1:${(hook.address() as AddressInfo).port}/step`;
  rig = await startConsole({ config: { jobWebhookHosts: ['127.0.0.1'] } });
  page = await signedIn(rig, DEMO_ADMIN);
  await page.setViewportSize({ width: 1600, height: 1000 });
  for (const jobName of jobNames) {
    const added = await api(page, 'POST', JOBS.add, {
      jobName,
      timeExpressionType: 'WORKFLOW',
      executeType: 'STANDALONE',
      processorType: 'webhook',
      jobParams: JSON.stringify({ url: hookUrl, method: 'POST', requestTimeoutMs: 30_000 }),
      retries: 0,
      timeout: 0,
      status: 1,
    });
    expect(added.status).toBe(200);
  }
});

afterAll(async () => {
  await rig?.close();
  hook?.closeAllConnections();
  await new Promise((resolve) => hook?.close(resolve));
});

const editor = () => view(page, EDITOR);
const canvasNode = (id: string) => editor().getByTestId(`rf__node-${id}`);

/** Drags a connection from one node's out handle to another's in handle, as a person does. */
async function connect(from: string, to: string): Promise<void> {
  const source = await canvasNode(from).locator('.react-flow__handle-right').boundingBox();
  const target = await canvasNode(to).locator('.react-flow__handle-left').boundingBox();
  if (!source || !target) throw new Error(`handles of ${from} → ${to} not on screen`);
  await page.mouse.move(source.x + source.width / 2, source.y + source.height / 2);
  await page.mouse.down();
  await page.mouse.move(target.x + target.width / 2, target.y + target.height / 2, { steps: 12 });
  await page.mouse.up();
}

/** The node ids on the canvas by the job name each shows. */
async function nodeIdsByName(): Promise<Record<string, string>> {
  const ids: Record<string, string> = {};
  for (const node of await editor().getByTestId('wf-node').all()) {
    const text = await node.innerText();
    const name = jobNames.find((jobName) => text.includes(jobName));
    if (name) ids[name] = (await node.getAttribute('data-node-id'))!;
  }
  return ids;
}

it('makes a workflow in the list and opens its editor', async () => {
  await page.goto(WORKFLOWS);
  const screen = view(page, WORKFLOWS);
  await screen.getByTestId('resource-add').click();
  const dialog = form(page);
  await dialog.waitFor();
  await dialog.locator('#form-WorkflowInfo_wfName').fill(wfName);
  const saved = page.waitForResponse((response) => response.url().includes(WORKFLOW_CALLS.add));
  await dialog.getByTestId('resource-form-submit').click();
  expect((await saved).status()).toBe(200);
  await dialog.waitFor({ state: 'detached' });
  workflowId = (await idsWhere(page, WORKFLOW_CALLS.query, 'wfName', [wfName]))[0]!;
  expect(workflowId).toBeTruthy();

  await screen.locator('tr', { hasText: wfName }).getByTestId('wf-row-edit-dag').click();
  await waitForPath(page, `${EDITOR}?workflowId=${workflowId}`);
  await editor().getByTestId('wf-palette').waitFor();
});

it('draws a three-node workflow (A → B, A → C) and saves it', async () => {
  const palette = editor().getByTestId('wf-palette');
  await palette.getByPlaceholder('Search jobs').fill(stamp);
  for (const jobName of jobNames) {
    const item = palette.locator(`[data-job-name="${jobName}"]`);
    await item.waitFor();
    await item.getByTestId('wf-palette-job-add').click();
  }
  await expect.poll(() => editor().getByTestId('wf-node').count()).toBe(3);
  // Laid out (no edges yet: one column) and fitted to the canvas: every handle on screen.
  await editor().getByTestId('wf-auto-layout').click();
  const ids = await nodeIdsByName();
  const [a, b, c] = jobNames.map((name) => ids[name]!);
  expect([a, b, c].every(Boolean)).toBe(true);

  await connect(a!, b!);
  await connect(a!, c!);
  await expect.poll(() => editor().locator('.react-flow__edge').count()).toBe(2);
  await editor().getByTestId(`rf__edge-${a}->${b}`).waitFor();
  await editor().getByTestId(`rf__edge-${a}->${c}`).waitFor();
  expect(await editor().getByTestId('wf-unsaved').count()).toBe(1);
  // Laid out again with its edges: A's successors one rank right of it, one above the other.
  await editor().getByTestId('wf-auto-layout').click();

  const saved = page.waitForResponse((response) =>
    response.url().includes(JOB_CALLS.saveWorkflowDag),
  );
  await editor().getByTestId('wf-save').click();
  expect((await saved).status()).toBe(200);
  await expect.poll(() => editor().getByTestId('wf-unsaved').count()).toBe(0);

  const { body } = await api(page, 'GET', `${JOB_CALLS.queryWorkflowDag}?id=${workflowId}`);
  const dag = body.data as WorkflowDag;
  expect(dag.nodes.map((node) => node.jobId).sort()).toHaveLength(3);
  expect(dag.edges.map((edge) => `${edge.from}->${edge.to}`).sort()).toEqual(
    [`${a}->${b}`, `${a}->${c}`].sort(),
  );
  // Where they were drawn, saved with them.
  const at = new Map(dag.nodes.map((node) => [node.id, node.position!]));
  expect(at.get(b!)!.x).toBeGreaterThan(at.get(a!)!.x);
  expect(at.get(c!)!.x).toBe(at.get(b!)!.x);
  expect(at.get(c!)!.y).not.toBe(at.get(b!)!.y);
});

it('refuses a cycle: drawn red in the editor, refused by the server naming its nodes', async () => {
  const ids = await nodeIdsByName();
  const [a, b] = [ids[jobNames[0]!]!, ids[jobNames[1]!]!];
  await connect(b, a);
  await editor().getByTestId(`rf__edge-${b}->${a}`).waitFor();
  let calls = 0;
  const count = (response: { url(): string }) => {
    if (response.url().includes(JOB_CALLS.saveWorkflowDag)) calls += 1;
  };
  page.on('response', count);
  await editor().getByTestId('wf-save').click();
  const refusal = editor().getByTestId('wf-refusal');
  await refusal.waitFor();
  expect(await refusal.innerText()).toMatch(/cycle/i);
  expect(await refusal.innerText()).toContain(jobNames[0]);
  expect(await refusal.innerText()).toContain(jobNames[1]);
  await expect
    .poll(async () =>
      (
        await Promise.all(
          [a, b].map((id) => canvasNode(id).getByTestId('wf-node').getAttribute('data-problem')),
        )
      ).join(),
    )
    .toBe('true,true');
  page.off('response', count);
  expect(calls).toBe(0);

  // Unsaved: leaving through the menu asks first, and declining stays on the editor.
  let asked = '';
  page.once('dialog', (dialog) => {
    asked = dialog.message();
    void dialog.dismiss();
  });
  await page.getByTestId('sidebar').getByText('Workflows', { exact: true }).click();
  await expect.poll(() => asked).toContain('unsaved changes');
  expect(pathOf(page)).toBe(`${EDITOR}?workflowId=${workflowId}`);
  expect(await editor().getByTestId('wf-unsaved').count()).toBe(1);

  // The server refuses it too (a client that skips the check), with a translated 400.
  const { body: saved } = await api(page, 'GET', `${JOB_CALLS.queryWorkflowDag}?id=${workflowId}`);
  const dag = saved.data as WorkflowDag;
  const cyclic = { ...dag, edges: [...dag.edges, { from: b, to: a }] };
  const refused = await api(page, 'PUT', JOB_CALLS.saveWorkflowDag, {
    id: workflowId,
    dag: cyclic,
  });
  expect(refused.status).toBe(400);
  expect(String(refused.body.message)).toMatch(/cycle/i);

  // The cycle's edge deleted, the refusal goes and the DAG saves as it was.
  // An edge is a thin curve: a click on its element selects it wherever its box lies.
  await editor().getByTestId(`rf__edge-${b}->${a}`).dispatchEvent('click');
  await editor().getByTestId('wf-edge-delete').click();
  await expect.poll(() => editor().locator('.react-flow__edge').count()).toBe(2);
  expect(await editor().getByTestId('wf-refusal').count()).toBe(0);
  const resaved = page.waitForResponse((response) =>
    response.url().includes(JOB_CALLS.saveWorkflowDag),
  );
  await editor().getByTestId('wf-save').click();
  expect((await resaved).status()).toBe(200);
  await expect.poll(() => editor().getByTestId('wf-unsaved').count()).toBe(0);
});

it('runs the workflow and shows its instance running live, node by node, to success', async () => {
  await editor().getByTestId('wf-editor-back').click();
  await waitForPath(page, WORKFLOWS);
  const screen = view(page, WORKFLOWS);
  await screen.locator('tr', { hasText: wfName }).getByTestId('wf-row-run').click();
  await page.getByTestId('wf-run-params').fill('{"district":"e2e"}');

  // Every state each node is drawn in, from the moment the run starts (the page is a single
  // page app: the recorder stays through the navigation to the details).
  await page.evaluate(() => {
    const seen: Record<string, string[]> = {};
    (window as unknown as { wfSeen: typeof seen }).wfSeen = seen;
    const record = () => {
      const nodes = document.querySelectorAll<HTMLElement>('[data-testid="wf-node"][data-state]');
      for (const node of Array.from(nodes)) {
        const id = node.dataset.nodeId!;
        const list = (seen[id] ??= []);
        if (list.at(-1) !== node.dataset.state) list.push(node.dataset.state!);
      }
    };
    new MutationObserver(record).observe(document.body, {
      subtree: true,
      childList: true,
      attributes: true,
      attributeFilter: ['data-state'],
    });
  });

  const ran = page.waitForResponse((response) => response.url().includes(JOB_CALLS.runWorkflow));
  await page.getByTestId('wf-run-confirm').click();
  const response = await ran;
  expect(response.status()).toBe(200);
  wfInstanceId = String(
    ((await response.json()) as { data: { wfInstanceId: string } }).data.wfInstanceId,
  );
  await waitForPath(page, `${DETAILS}?wfInstanceId=${wfInstanceId}`);
  const details = view(page, DETAILS);
  await details.getByTestId('wf-run-canvas').waitFor();
  await expect.poll(() => details.getByTestId('wf-node').count()).toBe(3);

  const status = details.getByTestId('wf-instance-status');
  await expect.poll(() => status.getAttribute('data-status'), { timeout: 60_000 }).toBe('SUCCEED');
  // Ended: no longer live.
  await expect.poll(() => details.getByTestId('wf-instance-live').count()).toBe(0);

  const seen = await page.evaluate(
    () => (window as unknown as { wfSeen: Record<string, string[]> }).wfSeen,
  );
  const ids = Object.keys(seen);
  expect(ids).toHaveLength(3);
  for (const id of ids) {
    // Each node was seen running (blue, pulsing) before it turned green, and ended there.
    expect(seen[id]).toContain('RUNNING');
    expect(seen[id]!.at(-1)).toBe('SUCCEED');
    expect(seen[id]!.indexOf('RUNNING')).toBeLessThan(seen[id]!.indexOf('SUCCEED'));
  }
  for (const node of await details.getByTestId('wf-node').all())
    expect(await node.evaluate((element) => getComputedStyle(element).borderTopColor)).toBe(GREEN);

  // The run's own fields: the init params given, its context as JSON.
  const detail = await api(page, 'GET', `${JOB_CALLS.queryWfInstanceDetail}?id=${wfInstanceId}`);
  const run = detail.body.data as WfInstanceDetail;
  expect(run.nodes.map((node) => node.status)).toEqual(['SUCCEED', 'SUCCEED', 'SUCCEED']);
  expect(await details.getByTestId('wf-instance-context').innerText()).toContain('district');

  // A node's instance: its state and the job instance it ran, opened in a drawer.
  await details.getByTestId('wf-node').first().click();
  const panel = details.getByTestId('wf-node-instance');
  await panel.waitFor();
  expect(await panel.getByTestId('wf-node-instance-state').innerText()).toBe('Succeeded');
  await panel.getByTestId('wf-node-instance-job').click();
  const drawer = page.getByTestId('instance-detail');
  await expect.poll(() => drawer.innerText()).toContain('Succeeded');
});

it('lists the run among the workflow’s instances and its three node instances', async () => {
  await page.goto(`/dagworkflowinstance?workflowId=${workflowId}`);
  const instances = view(page, '/dagworkflowinstance');
  await instances.getByTestId('wf-instance-filter').waitFor();
  await expect.poll(() => instances.locator('tbody tr.ant-table-row').count()).toBe(1);
  await page.goto(`/dagtaskinstance?wfInstanceId=${wfInstanceId}`);
  const nodes = view(page, '/dagtaskinstance');
  await expect.poll(() => nodes.locator('tbody tr.ant-table-row').count()).toBe(3);
  for (const jobName of jobNames)
    expect(await nodes.locator('tbody').innerText()).toContain(jobName);
});
