import { entityCalls, notificationEntity } from '@shuili/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, signIn } from '@shuili/test-support/api-client';
import { startTestServer, type TestServer } from '@shuili/test-support/test-server';
import { sanitizeRichText } from './rich-text';

/** Markup that would run script, load something or restyle the page if rendered as it came. */
const ATTACKS: Array<[string, string]> = [
  ['script element', '<p>ok</p><script>window.__xss=1</script>'],
  ['event handler', '<img src=x onerror="window.__xss=1">'],
  ['javascript: link', '<a href="javascript:window.__xss=1">click</a>'],
  ['entity-encoded javascript: link', '<a href="jav&#x09;ascript:alert(1)">click</a>'],
  ['data: link', '<a href="data:text/html,<script>alert(1)</script>">click</a>'],
  ['svg with onload', '<svg onload="window.__xss=1"><circle r="1"/></svg>'],
  ['iframe', '<iframe src="https://evil.example/"></iframe>'],
  ['style url()', '<p style="background-image: url(https://evil.example/t.png)">x</p>'],
  ['style expression', '<p style="color: expression(alert(1))">x</p>'],
  ['style element', '<style>body{display:none}</style><p>x</p>'],
  ['form', '<form action="https://evil.example/"><input name="password"></form>'],
  ['meta refresh', '<meta http-equiv="refresh" content="0;url=https://evil.example/">'],
  ['base href', '<base href="https://evil.example/">'],
  ['object', '<object data="evil.swf"></object><embed src="evil.swf">'],
  ['unclosed attribute trick', '<img src="x" alt="a" onerror=alert(1)//'],
];

describe('rich-text sanitiser', () => {
  it.each(ATTACKS)('removes %s', (_name, html) => {
    const clean = sanitizeRichText(html);
    expect(clean).not.toMatch(/<(script|svg|iframe|style|form|input|meta|base|object|embed)\b/i);
    expect(clean).not.toMatch(/\son\w+\s*=/i);
    expect(clean).not.toMatch(/javascript:|data:text|url\(|expression\(/i);
  });

  it('keeps the formatting a publisher means', () => {
    const html =
      '<h2>Spring irrigation</h2><p style="text-align: center; color: #c00">Opens <strong>Monday</strong>, ' +
      '<em>08:00</em>.</p><ul><li>Canal 1</li><li>Canal 2</li></ul>' +
      '<table><tbody><tr><td colspan="2">Quota</td></tr></tbody></table>' +
      '<p><a href="https://shuili.example/rules" target="_blank">Rules</a> ' +
      '<img src="https://shuili.example/map.png" alt="map" width="300"></p>';
    const clean = sanitizeRichText(html);
    expect(clean).toContain('<h2>Spring irrigation</h2>');
    expect(clean).toContain('<p style="text-align:center;color:#c00">');
    expect(clean).toContain('<strong>Monday</strong>');
    expect(clean).toContain('<ul><li>Canal 1</li><li>Canal 2</li></ul>');
    expect(clean).toContain('<td colspan="2">Quota</td>');
    // A new tab never gets a handle on the console's window.
    expect(clean).toContain(
      '<a href="https://shuili.example/rules" target="_blank" rel="noopener noreferrer">Rules</a>',
    );
    expect(clean).toContain('<img src="https://shuili.example/map.png" alt="map" width="300" />');
    // Text that merely looks like markup stays text.
    expect(sanitizeRichText('1 &lt; 2 &amp;&amp; 3 &gt; 2')).toBe('1 &lt; 2 &amp;&amp; 3 &gt; 2');
  });
});

describe('rich text is stored sanitised', () => {
  let server: TestServer;
  let token: string;
  const calls = entityCalls(notificationEntity);
  beforeAll(async () => {
    server = await startTestServer();
    token = (await signIn(server, 'demo', 'admin', 'admin123')).access_token;
  });
  afterAll(async () => server?.close());

  const stored = async (id: string) =>
    (
      await server.db.system((sql) =>
        sql.query<{ content: string }>('SELECT content FROM notification WHERE id = $1', [id]),
      )
    ).rows[0]!.content;

  it('on add and on update, whatever the client sent', async () => {
    const notice = {
      title: '<img src=x onerror=window.__xss=1>',
      type: 'notification',
      priority: 'normal',
      publishScope: 'all',
    };
    const added = await call(server, 'POST', calls.add, {
      token,
      body: {
        ...notice,
        content: `<p>Gate 3 closes</p>${ATTACKS.map(([, html]) => html).join('')}`,
      },
    });
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    const id = String(added.body.data.id);
    const content = await stored(id);
    expect(content).toContain('<p>Gate 3 closes</p>');
    expect(content).not.toMatch(/<script|<svg|<iframe|\son\w+=|javascript:|url\(/i);
    expect(added.body.data.content).toBe(content);
    // A title is plain text, not rich text: it is kept as typed and the console shows it as text.
    expect(added.body.data.title).toBe(notice.title);

    const updated = await call(server, 'PUT', calls.update, {
      token,
      body: { id, content: '<p onclick="steal()">Reopened</p><script>steal()</script>' },
    });
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
    expect(await stored(id)).toBe('<p>Reopened</p>');
  });

  it('refuses content that was nothing but disallowed markup, naming the field', async () => {
    const added = await call(server, 'POST', calls.add, {
      token,
      lang: 'zh',
      body: {
        title: 'Empty after cleaning',
        type: 'notification',
        priority: 'normal',
        publishScope: 'all',
        content: '<script>window.__xss=1</script><iframe src="https://evil.example/"></iframe>',
      },
    });
    expect(added.status).toBe(400);
    expect(added.body.errors[0].field).toBe('content');
    expect(added.body.message).toMatch(/[\u4e00-\u9fff]/);
    const rows = await server.db.system((sql) =>
      sql.query("SELECT 1 FROM notification WHERE title = 'Empty after cleaning'"),
    );
    expect(rows.rows).toEqual([]);
  });
});
