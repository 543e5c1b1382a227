// Run by node (`node test/helpers/hold-read.mjs <workspace root> <ms>`), after `npm run build`: opens
// the workspace's index with the compiled store, begins a read transaction and reads in it (SQLite's
// SHARED lock), prints `holding <chunk count>`, keeps the transaction open for <ms>, then commits and
// prints `released` — what a long reader in another process does (an export, a pack, a slow
// federation part).
import { loadEngine } from '../../dist/core/sqlite/engine.js';
import { IndexStore } from '../../dist/core/index/store.js';
import { createNodeIndexStorage } from '../../dist/runtimes/node/index.js';

const [root, ms] = process.argv.slice(2);
const store = await IndexStore.open(createNodeIndexStorage(root), await loadEngine(), { create: false, lockTimeoutMs: 10_000 });
store.db.exec('BEGIN DEFERRED');
const chunks = store.db.selectValue('SELECT count(*) FROM chunks');
console.log(`holding ${chunks}`);
await new Promise((resolve) => setTimeout(resolve, Number(ms)));
store.db.exec('COMMIT');
console.log('released');
store.close();
