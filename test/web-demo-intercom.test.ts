// Message ↔ code in the web-demo explorer (issue 15, phase 3), built and driven in headless Chromium:
// the sample workspace is indexed from a zip; a conversation log (NDJSON) is loaded in the viewer —
// picked as a file, and named among the zip's own files — through the Worker's intercom calls (the
// core engine, no copy in the page); the open file gets gutter markers `[n]` on the lines its
// messages relate to (an explicit relation drawn apart from inferred attachments), and a click on a
// marker scrolls the conversation panel to that message and selects it. Each screen is saved under
// test-output/web-demo/ (looked at, not compared).
// @lane browser
import { describe, it, expect } from 'vitest';
import type { Page } from 'playwright-core';
import type { StaticServer } from './helpers/browser.ts';
import { openIndexed, sampleWorkspaceZip, webDemoShot, webDemoSuite } from './helpers/web-demo.ts';
import { chromiumBinary, titled } from './helpers/runtimes.ts';

const chromium = chromiumBinary();

const WS = 'intercom-shop';
const CATALOG = 'src/Contoso.Shop.Application/Catalog/CatalogService.cs';

const ev = (o: Record<string, unknown>) => JSON.stringify({ schema_version: 1, ...o });

/** Thread t1: 40 messages; #5 and #30 attach lines of CatalogService.cs, #32–#34 are related to another member of it; thread t2: two messages. */
function conversationLog(): string {
  const lines: string[] = [];
  for (let i = 1; i <= 40; i++) {
    const attachments =
      i === 5 ? [{ file: CATALOG, line_start: 30, line_end: 40, member_key: null }]
      : i === 30 ? [{ file: CATALOG, line_start: 64, line_end: 70, member_key: null }]
      : [];
    lines.push(ev({ type: 'message_added', thread_id: 't1', message_id: `m${i}`, role: i % 2 ? 'user' : 'assistant', text: `Message ${i}: ${i === 30 ? 'why does GetProductByIdAsync return null for a missing id?' : 'about the catalog service and its queries'}`, attachments }));
  }
  lines.push(ev({ type: 'message_range_related', thread_id: 't1', start_ordinal: 32, end_ordinal: 34, code_ref: { file: CATALOG, line_start: 82, line_end: 90, shape: 'lines' }, source: 'agent' }));
  lines.push(ev({ type: 'message_added', thread_id: 't2', message_id: 'x1', role: 'user', text: 'A second thread', attachments: [{ file: CATALOG, line_start: 26, line_end: 30 }] }));
  lines.push(ev({ type: 'message_added', thread_id: 't2', message_id: 'x2', role: 'assistant', text: 'Its answer' }));
  return `${lines.join('\n')}\n`;
}

const sampleZipWithLog = () => sampleWorkspaceZip(WS, { '.sessions/review.events.ndjson': conversationLog() });

const shot = (page: Page, name: string) => webDemoShot(page, name);

/** Whether the element lies inside its scrolling list's visible box. */
function inView(page: Page, selector: string): Promise<boolean> {
  return page.evaluate((sel) => {
    const el = document.querySelector(sel);
    const list = el?.closest('.messages');
    if (!el || !list) return false;
    const a = el.getBoundingClientRect();
    const b = list.getBoundingClientRect();
    return a.top >= b.top - 1 && a.bottom <= b.bottom + 1;
  }, selector);
}

describe.skipIf(!chromium)(titled('web-demo: message ↔ code (gutter markers, conversation panel)', { Chromium: chromium }), () => {
  let server: StaticServer;
  let page: Page;
  const errors: string[] = [];

  webDemoSuite(chromium, 'intercom', async (demo) => {
    ({ server, page } = demo);
    page.on('pageerror', (e) => errors.push(String(e)));
    await openIndexed(demo, WS, sampleZipWithLog(), 90_000);
    await page.click('.index-panel button[aria-label="Dismiss"]');
  });

  it('a picked log: markers on the file\'s lines, a click scrolls the panel to that message and selects it', async () => {
    await page.goto(`${server.url}/#/w/${WS}/f/${CATALOG}`);
    await page.waitForSelector('.code [data-line="26"]');
    // No conversation yet: no marker column at all.
    expect(await page.$$('.g-msg')).toHaveLength(0);
    await page.click('#conversation-toggle');
    await page.waitForSelector('.conversation .log-load');
    await shot(page, 'intercom-01-load-log');
    await page.setInputFiles('#log-input', { name: 'review.events.ndjson', mimeType: 'application/x-ndjson', buffer: Buffer.from(conversationLog()) });
    await page.waitForSelector('.conversation .messages .msg[data-ordinal="40"]');
    await page.waitForSelector('.msg-marker');
    expect(await page.textContent('.conversation .conv-meta')).toMatch(/40 messages/);
    expect(await page.$$eval('.conversation select option', (o) => o.map((x) => x.textContent))).toEqual(['t1', 't2']);

    // Every marker sits on a line of the open file, with the ordinals of the messages there.
    const markers = await page.$$eval('.msg-marker', (els) => els.map((e) => ({
      line: Number(e.closest('.row')?.getAttribute('data-line')), ordinals: e.getAttribute('data-ordinals'), label: e.textContent, explicit: e.classList.contains('explicit'),
    })));
    const of = (o: string) => markers.find((m) => m.ordinals === o);
    expect(of('5'), JSON.stringify(markers)).toMatchObject({ label: '[5]', explicit: false });
    expect(of('30')).toMatchObject({ label: '[30]', explicit: false });
    expect(of('32,33,34')).toMatchObject({ label: '[32–34]', explicit: true });
    // #30 attached lines 64–70, inside GetProductByIdAsync (62–79): its marker is there.
    expect(of('30')!.line).toBeGreaterThanOrEqual(62);
    expect(of('30')!.line).toBeLessThanOrEqual(79);
    expect(of('5')!.line).toBeGreaterThanOrEqual(26);
    expect(of('5')!.line).toBeLessThanOrEqual(61);
    expect(await page.$$('.msg.selected')).toHaveLength(0);
    await shot(page, 'intercom-02-markers');

    // The panel starts at the top: #30 is out of view until its marker is clicked.
    expect(await inView(page, '.msg[data-ordinal="30"]')).toBe(false);
    await page.click('.msg-marker[data-ordinals="30"]');
    await page.waitForSelector('.msg.selected[data-ordinal="30"]');
    await page.waitForFunction(() => (document.querySelector('.conversation .messages')?.scrollTop ?? 0) > 0);
    expect(await inView(page, '.msg[data-ordinal="30"]')).toBe(true);
    expect(await page.getAttribute('.msg[data-ordinal="30"]', 'aria-selected')).toBe('true');
    expect(await page.$$('.msg.selected')).toHaveLength(1);
    await shot(page, 'intercom-03-selected-30');

    // The explicit relation: its first message selected, the range's others marked as related.
    await page.click('.msg-marker.explicit');
    await page.waitForSelector('.msg.selected[data-ordinal="32"]');
    expect(await page.$$eval('.msg.related', (els) => els.map((e) => e.getAttribute('data-ordinal')))).toEqual(['32', '33', '34']);
    expect(await inView(page, '.msg[data-ordinal="32"]')).toBe(true);
    await shot(page, 'intercom-04-explicit-32');

    // Another file of the workspace: no message relates to it, the panel says so.
    await page.goto(`${server.url}/#/w/${WS}/f/src/Contoso.Shop.Application/Catalog/ICatalogService.cs`);
    await page.waitForSelector('.code [data-line="1"]');
    await page.waitForFunction(() => /no message of thread t1 relates to/.test(document.querySelector('.conv-status')?.textContent ?? ''));
    expect(await page.$$('.msg-marker')).toHaveLength(0);
    expect(errors).toEqual([]);
  }, 120_000);

  it('a log among the workspace\'s own files, on its second thread', async () => {
    await page.goto(`${server.url}/#/w/${WS}/f/${CATALOG}`);
    await page.waitForSelector('.code [data-line="26"]');
    if (!(await page.$('.conversation'))) await page.click('#conversation-toggle');
    await page.click('.conversation header button[aria-label="Load another log"]');
    await page.fill('#log-path', '.sessions/review.events.ndjson');
    await page.click('.log-load form button[type=submit]');
    await page.waitForSelector('.conversation .msg[data-ordinal="40"]');
    await page.selectOption('.conversation select', 't2');
    await page.waitForFunction(() => document.querySelectorAll('.conversation .msg').length === 2);
    await page.waitForSelector('.msg-marker[data-ordinals="1"]');
    await page.click('.msg-marker[data-ordinals="1"]');
    await page.waitForSelector('.msg.selected[data-ordinal="1"]');
    expect(await page.textContent('.msg.selected .msg-text')).toBe('A second thread');
    await shot(page, 'intercom-05-workspace-log-t2');
    // A path that leaves the workspace is refused with the core's code and hint.
    await page.click('.conversation header button[aria-label="Load another log"]');
    await page.fill('#log-path', '../elsewhere.ndjson');
    await page.click('.log-load form button[type=submit]');
    await page.waitForFunction(() => /outside the workspace/.test(document.body.textContent ?? ''));
    await shot(page, 'intercom-06-outside-refused');
    expect(errors).toEqual([]);
  }, 120_000);
});
