// The web-demo explorer as its browser suites drive it: a production build of web-demo/ (its own
// vite.config.ts) in a temp folder, served from 127.0.0.1 with no COOP/COEP headers, and a fresh
// headless Chromium at a 1440×900 viewport; screenshots go to test-output/web-demo/. webDemoSuite
// gives a describe block its explorer (started before, a screenshot of each failing test, closed after).
import * as fs from 'node:fs';
import { afterAll, afterEach, beforeAll } from 'vitest';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { zipSync } from 'fflate';
import { launchChromium, listFiles, serveStatic, REPO, type BrowserSession, type StaticServer } from './browser.ts';
import { tmpDir } from './tmp-workspace.ts';

export const WEB_DEMO_SHOTS = path.join(REPO, 'test-output/web-demo');

export interface WebDemo {
  appDir: string;
  server: StaticServer;
  session: BrowserSession;
  page: Page;
  close(): Promise<void>;
}

export async function buildWebDemo(): Promise<string> {
  const outDir = tmpDir('hci-web-demo-');
  const { build } = await import('vite');
  await build({ configFile: path.join(REPO, 'web-demo/vite.config.ts'), mode: 'production', logLevel: 'error', build: { outDir, emptyOutDir: true, reportCompressedSize: false } });
  return outDir;
}

/** Builds the app while Chromium starts, serves the build, and sizes the first tab. */
export async function startWebDemo(chromium: string): Promise<WebDemo> {
  fs.mkdirSync(WEB_DEMO_SHOTS, { recursive: true });
  const [appDir, session] = await Promise.all([buildWebDemo(), launchChromium(chromium)]);
  const server = await serveStatic(appDir);
  const page = session.page;
  await page.setViewportSize({ width: 1440, height: 900 });
  return {
    appDir, server, session, page,
    async close() {
      await session.close();
      await server.close();
      fs.rmSync(appDir, { recursive: true, force: true });
    },
  };
}

/** Drops a zip on the app's zip input and waits until the index panel says the pass is done. */
export async function indexZip(page: Page, name: string, zip: Uint8Array, timeout = 60_000): Promise<void> {
  await page.setInputFiles('#zip-input', { name, mimeType: 'application/zip', buffer: Buffer.from(zip) });
  await page.waitForSelector('.index-panel.phase-done', { timeout });
}

export function webDemoShot(page: Page, name: string): Promise<Buffer> {
  return page.screenshot({ path: path.join(WEB_DEMO_SHOTS, `${name}.png`) });
}

/** The sample workspace as a zip under one top folder (a GitHub-style archive), with extra files beside it. */
export function sampleWorkspaceZip(top: string, extra: Record<string, string> = {}): Uint8Array {
  const sample = path.join(REPO, 'test/sample-workspace');
  const files: Record<string, Uint8Array> = {};
  for (const rel of listFiles(sample)) files[`${top}/${rel}`] = fs.readFileSync(path.join(sample, rel));
  for (const [rel, text] of Object.entries(extra)) files[`${top}/${rel}`] = new TextEncoder().encode(text);
  return zipSync(files, { level: 6 });
}

/** Opens the app's home screen in `demo` and indexes `zip` as workspace `name` (its top folder). */
export async function openIndexed(demo: WebDemo, name: string, zip: Uint8Array, timeout?: number): Promise<void> {
  await demo.page.goto(`${demo.server.url}/`);
  await demo.page.waitForSelector('html[data-ready="true"]');
  await indexZip(demo.page, `${name}.zip`, zip, timeout);
}

/** Resolves once no search is running (the search bar's data-searching is gone). */
export function searchIdle(page: Page): Promise<unknown> {
  return page.waitForFunction(() => !document.querySelector('.searchbar[data-searching]'));
}

/**
 * Resolves once the answer on screen is the current query's last: no search running, and the whole
 * page and the chip counts that follow a typing pause are in (the search bar's data-settled). Waits
 * for the explorer's own state, never a fixed time.
 */
export function searchSettled(page: Page): Promise<unknown> {
  return page.waitForSelector('.searchbar[data-settled]:not([data-searching])', { state: 'attached' });
}

/**
 * The explorer a describe block drives: started (startWebDemo) before its tests, then `ready` runs on
 * it (take its page, open and index a workspace…); a failing test leaves a screenshot
 * FAIL-<tag>-<test name>; everything is closed after the block.
 */
export function webDemoSuite(chromium: string, tag: string, ready: (demo: WebDemo) => Promise<void>): void {
  let demo: WebDemo | undefined;
  beforeAll(async () => {
    demo = await startWebDemo(chromium);
    await ready(demo);
  }, 180_000);
  afterEach(async (ctx) => {
    if (demo && ctx.task.result?.state === 'fail') await webDemoShot(demo.page, `FAIL-${tag}-${ctx.task.name.slice(0, 40).replace(/[^a-z0-9]+/gi, '-')}`).catch(() => {});
  });
  afterAll(async () => {
    await demo?.close();
  });
}
