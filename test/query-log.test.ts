// The recent-queries log (core/search/query-log.ts) over a real index folder: a new query appends
// one line, a repeated one appends nothing, the log is compacted to the latest 200 once it holds 400
// lines, a torn or foreign line is skipped (and the next append starts after it on a line of its own),
// and a later process (a second QueryLog) recalls by key.
// @lane unit
import { describe, it, expect, beforeEach, afterEach } from 'vitest';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { QueryLog, queryKey } from '../core/search/query-log.ts';
import { createNodeIndexStorage } from '../runtimes/node/node-storage.ts';
import { tmpDir } from './helpers/tmp-workspace.ts';

let root: string;
const logFile = () => path.join(root, '.hci', 'recent-queries.ndjson');
const lines = () => fs.readFileSync(logFile(), 'utf8').split('\n').filter(Boolean);
const remember = (log: QueryLog, query: string) => log.remember(queryKey({ query }), { query });

beforeEach(() => {
  root = tmpDir('hci-query-log-');
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

describe('recent-queries log', () => {
  it('appends a line per new query, none for a repeat, and a later reader recalls each by key', () => {
    const storage = createNodeIndexStorage(root);
    const a = new QueryLog(storage, true);
    remember(a, 'catalog service');
    const before = fs.statSync(logFile()).ino;
    remember(a, 'order total');
    expect(fs.statSync(logFile()).ino, 'appended in place, not replaced').toBe(before);
    // A second process: its own memory is empty, so it reads the log (and appends nothing for a known query).
    const b = new QueryLog(createNodeIndexStorage(root), true);
    remember(b, 'catalog service');
    expect(lines()).toHaveLength(2);
    expect(b.recall(queryKey({ query: 'order total' }))).toMatchObject({ query: 'order total' });
    expect(b.recall(queryKey({ query: 'never asked' }))).toBeUndefined();
  });

  it('skips torn and foreign lines, and compacts to the latest 200 queries at 400 lines', () => {
    const storage = createNodeIndexStorage(root);
    fs.mkdirSync(path.join(root, '.hci'), { recursive: true });
    fs.writeFileSync(logFile(), '{"key":"x","query":"from an older run"}\nnot json\n{"key":1}\n{"key":"torn","qu');
    const log = new QueryLog(storage, true);
    expect(log.recall('x')).toMatchObject({ query: 'from an older run' });
    expect(log.recall('torn')).toBeUndefined();
    // The next append starts on a line of its own after the torn tail, so its query stays readable.
    remember(log, 'after a torn tail');
    expect(new QueryLog(createNodeIndexStorage(root), true).recall(queryKey({ query: 'after a torn tail' }))).toMatchObject({ query: 'after a torn tail' });
    fs.writeFileSync(logFile(), '');
    for (let i = 0; i < 399; i++) remember(log, `query ${i}`);
    expect(lines()).toHaveLength(399);
    remember(log, 'query 399');
    const kept = lines();
    expect(kept).toHaveLength(200);
    expect(JSON.parse(kept[0]).query).toBe('query 200');
    expect(JSON.parse(kept[199]).query).toBe('query 399');
    const later = new QueryLog(createNodeIndexStorage(root), true);
    expect(later.recall(queryKey({ query: 'query 250' }))).toMatchObject({ query: 'query 250' });
    expect(later.recall(queryKey({ query: 'query 10' }))).toBeUndefined();
  });
});
