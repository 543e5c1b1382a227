// Vite config: the vitest settings for `npm test`, and what a browser build of the hci Worker needs
// (ES-module workers, the hci plugin that keeps a second SQLite copy out of the bundle, and no
// dependency pre-bundling of sqlite-wasm in dev, which would break its wasm URL). The test page
// (test/browser) is built with this file; the web-demo build joins it later.
import { defineConfig } from 'vitest/config';
import { hciVitePlugin } from './runtimes/browser/vite-plugin.ts';
import { filesByLane } from './test/lanes.ts';

const lanes = filesByLane();

// The unit lane runs in-process (no child process, enforced by its setup file), so two of its files
// at a time use both cores of a 2-core machine (CI's) without one suite starving another's
// processes; it runs first, alone (groupOrder 0). Every other lane runs one file at a time after it:
// those suites drive child processes (CLI, MCP servers, Deno, Chromium) that use the second core,
// and the latency tests (watcher, reader waits) measure the product, not two suites fighting over
// 2 cores. vitest requires one worker count per group, hence the two groups.
const UNIT_LANE = { setupFiles: ['test/helpers/unit-lane.ts'], maxWorkers: 2, sequence: { groupOrder: 0 } };
const OTHER_LANES = { maxWorkers: 1, sequence: { groupOrder: 1 } };

export default defineConfig({
  plugins: [hciVitePlugin()],
  worker: { format: 'es', plugins: () => [hciVitePlugin()] },
  optimizeDeps: { exclude: ['@sqlite.org/sqlite-wasm'] },
  build: { target: 'es2022' },
  test: {
    // One project per test lane (test/lanes.ts): `vitest run --project unit`. The unit lane may not start
    // child processes: its setup file makes any such call throw. A file without a tag is in the cli lane;
    // one with an unknown lane or two runs as `untagged` (and test/lanes.test.ts fails).
    projects: Object.entries(lanes)
      .filter(([, files]) => files.length > 0)
      .map(([name, files]) => ({
        extends: true as const,
        test: { name, include: files, ...(name === 'unit' ? UNIT_LANE : OTHER_LANES) },
      })),
    // Says at the end which runtime suites (Deno, Chromium) were skipped, and fails at once where they are required.
    globalSetup: ['test/helpers/runtime-summary.ts'],
    environment: 'node',
    pool: 'forks',
    // One test file at a time unless a lane says otherwise (UNIT_LANE above).
    maxWorkers: 1,
    testTimeout: 60_000,
    hookTimeout: 60_000,
    reporters: ['default'],
  },
});
