// Bursts of new files into new folders under the real MCP server's watcher (`hci mcp` over stdio on a
// copy of the sample workspace): each round makes a folder, writes N files into it at once, waits
// until the watcher is idle, and prints how many files the index holds against how many it should.
// Run beside background CPU load to see files lost between an OS watcher listing a new folder and
// watching it (core/freshness.ts changeFilter). Needs `npm run build`. Usage:
//   node --experimental-transform-types bench/watch-burst.ts [--rounds 6] [--files 400]
// Prints one line per round; exits 1 when any round's count is short.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { copySample, ensureBuilt, startStdio, waitFor } from '../test/helpers/mcp-harness.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const arg = (name: string, def: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : def;
};

async function main(): Promise<number> {
  const rounds = arg('rounds', 6);
  const files = arg('files', 400);
  ensureBuilt();
  const ws = copySample('hci-watch-burst-');
  const mcp = await startStdio(ws.root);
  const status = async () => (await mcp.call('status', {})).structured;
  let short = 0;
  try {
    await waitFor(async () => (await mcp.call('search', { query: 'catalog' })).structured.status === 'ok', 120_000, 'the first index');
    const base = (await status()).index.files as number;
    for (let round = 0; round < rounds; round++) {
      const dir = path.join(ws.root, 'src', `Burst${round}`);
      fs.mkdirSync(dir, { recursive: true });
      for (let i = 0; i < files; i++) fs.writeFileSync(path.join(dir, `Gen${i}.cs`), `public class Burst${round}Gen${i} { }\n`);
      // Idle: nothing pending, no run going; then a while longer for any late event.
      await waitFor(async () => {
        const st = await status();
        return st.watcher.pending === 0 && !st.tasks.some((t: { state: string }) => t.state === 'running');
      }, 300_000, 'the watcher to be idle', 500);
      await sleep(3000);
      const st = await status();
      const want = base + files * (round + 1);
      if (st.index.files !== want) short++;
      console.log(`round ${round}: index files ${st.index.files} of ${want}, watcher runs ${st.watcher.runs}, load ${fs.readFileSync('/proc/loadavg', 'utf8').split(' ')[0]}`);
    }
  } finally {
    await mcp.close();
    ws.cleanup();
  }
  console.log(`${rounds - short} of ${rounds} rounds complete`);
  return short ? 1 : 0;
}

process.exitCode = await main();
