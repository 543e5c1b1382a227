// Test helper for the intercom suites: a small C# workspace (real files in a temp folder, indexed by
// the real indexer), a thread log written as NDJSON, and small readers of that log.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { openWorkspace } from '../../runtimes/node/index.ts';
import { createTmpWorkspace, type TmpWorkspace } from './tmp-workspace.ts';

/** src/Foo.cs: Add(int) spans lines 9–20 (its doc comment on 9), Reset() 22–25. */
export const FOO_CS = `namespace Demo.Shop;

public class Foo
{
    private int _count;

    public int Count => _count;

    /// <summary>Adds to the counter.</summary>
    public void Add(int amount)
    {
        if (amount < 0)
        {
            throw new ArgumentException("negative amount");
        }
        _count += amount;
        Log("added " + amount);
        Notify();
        Touch();
    }

    public void Reset()
    {
        _count = 0;
    }

    private void Log(string message) { }
    private void Notify() { }
    private void Touch() { }
}
`;

/** src/Bar.cs: Ship() spans lines 5–8. */
export const BAR_CS = `namespace Demo.Shop;

public class Bar
{
    public void Ship()
    {
        var box = new Foo();
    }
}
`;

export const ADD_KEY = 'Demo.Shop.Foo.Add(int)';
export const RESET_KEY = 'Demo.Shop.Foo.Reset()';
export const SHIP_KEY = 'Demo.Shop.Bar.Ship()';

/** The lines of Foo.cs between from and to (1-based, inclusive). */
export function fooLines(from: number, to: number): string {
  return FOO_CS.split('\n').slice(from - 1, to).join('\n');
}

export function added(id: string, attachments: unknown[] = [], thread = 't1', role = 'user'): string {
  return JSON.stringify({ type: 'message_added', schema_version: 1, thread_id: thread, message_id: id, role, text: `text of ${id}`, attachments });
}

/**
 * Thread t1, five messages: m2 attaches Foo.cs L10–20 (no member key, with an excerpt), m4 attaches
 * Reset() by member key (no lines), m5 attaches Bar.cs L5–8.
 */
export function threadLog(): string {
  return [
    added('m1'),
    added('m2', [{ file: 'src/Foo.cs', line_start: 10, line_end: 20, member_key: null, excerpt: fooLines(10, 11) }], 't1', 'assistant'),
    added('m3'),
    added('m4', [{ file: 'src/Foo.cs', member_key: RESET_KEY, shape: 'member', excerpt: fooLines(22, 22) }], 't1', 'tool'),
    added('m5', [{ file: 'src/Bar.cs', line_start: 5, line_end: 8 }]),
  ].join('\n') + '\n';
}

export async function indexWorkspace(root: string): Promise<void> {
  const ws = await openWorkspace(root);
  try {
    await ws.index();
  } finally {
    ws.close();
  }
}

/** A temp workspace with Foo.cs and Bar.cs, indexed, and `events.ndjson` holding `log`. */
export async function intercomWorkspace(log = threadLog()): Promise<TmpWorkspace & { log: string }> {
  const ws = await createTmpWorkspace({ 'src/Foo.cs': FOO_CS, 'src/Bar.cs': BAR_CS, 'events.ndjson': log }, 'hci-intercom-');
  await indexWorkspace(ws.root);
  return { ...ws, log: path.join(ws.root, 'events.ndjson') };
}

export function logLines(file: string): string[] {
  return fs.readFileSync(file, 'utf8').split('\n').filter((l) => l !== '');
}
