// Child process for the intercom log suites: appends message_added events to a log through the
// compiled Node log adapter (dist/), as fast as it can, and prints each committed count to stdout.
//   node test/helpers/intercom-append-child.mjs <log> <writer-id> <count|forever> <pad-bytes>
// Each line carries writer id, sequence number and a padding of <pad-bytes> characters, so a reader can
// tell whole lines from interleaved or torn ones.
import { nodeLogFile } from '../../dist/runtimes/node/intercom-log.js';

const [logPath, writer, countArg, padArg] = process.argv.slice(2);
const count = countArg === 'forever' ? Infinity : Number(countArg);
const pad = 'x'.repeat(Number(padArg ?? 100));
const log = nodeLogFile(logPath, 30_000);
for (let i = 1; i <= count; i++) {
  const line = JSON.stringify({ type: 'message_added', schema_version: 1, thread_id: `w${writer}`, message_id: `w${writer}-${i}`, role: 'user', text: pad });
  await log.append(line);
  process.stdout.write(`${i}\n`);
}
