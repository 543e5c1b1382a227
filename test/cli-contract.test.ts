// The CLI's --json is the contract: every verb's JSON output, under the Node CLI (bin/hci.js) and the
// Deno CLI (runtimes/deno/cli.ts, narrow permissions), parses with the contract schema of its answer
// (core/contract/) and carries no field the schema does not declare; errors included. Both CLIs come
// from one command table, so they also print the same answers and exit codes.
// @lane cli
import { describe, it, expect, afterAll } from 'vitest';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { z } from 'zod';
import {
  explainResponse, failureAnswer, indexAnswer, outlineResponse, resolveResponse, searchResponse, statusReport, treeResponse,
} from '../core/contract/index.ts';
import { copySample, ensureBuilt, firstMethod } from './helpers/mcp-harness.ts';
import { CLI_RUNTIMES, cliJson, expectContract } from './helpers/cli-json.ts';

describe.each(CLI_RUNTIMES)('the %s CLI prints the contract with --json', (runtime) => {
  const ws = copySample(`hci-cli-contract-${runtime}-`);
  afterAll(() => ws.cleanup());

  it('every verb, on every answer status, validates against its contract schema', () => {
    ensureBuilt();
    const root = ws.root;
    const file = 'src/Contoso.Shop.Application/Catalog/CatalogService.cs';
    const run = (args: string[], schema: z.ZodType, code: number) => {
      const r = cliJson(runtime, root, [...args, '--json']);
      expect(r.code, `hci ${args.join(' ')}: ${r.stderr}`).toBe(code);
      expectContract(schema, r.json, `hci ${args.join(' ')}`);
      return r.json;
    };

    // Before the first run: no index, as an answer (exit 3).
    expect(run(['status', '--root', root], statusReport, 3).status).toBe('no_index');
    expect(run(['search', 'CatalogService', '--root', root], searchResponse, 3).status).toBe('no_index');
    expect(run(['outline', path.join(root, file), '--root', root], outlineResponse, 3).error.code).toBe('no_index');

    expect(run(['index', root], indexAnswer, 0).files_indexed).toBeGreaterThan(50);
    expect(run(['index', root, '--path', file], indexAnswer, 0).files_scanned).toBe(1);
    expect(run(['index', root, '--full', '--path', file], failureAnswer, 2).error.code).toBe('usage');

    // search: every status it can have here, and every match value.
    const all = run(['search', 'CatalogService', '--root', root], searchResponse, 0);
    expect([all.status, all.match]).toEqual(['ok', 'all']);
    expect(run(['search', 'where', 'is', 'the', 'order', 'discount', 'calculated', '--root', root], searchResponse, 0).match).toBe('all_then_any');
    expect(run(['search', 'CatalogService', 'zzzqqqnothing', '--root', root], searchResponse, 0).match).toBe('any');
    const none = run(['search', 'ZzyzxNotInThisCodeBase', '--root', root], searchResponse, 1);
    expect([none.status, none.match]).toEqual(['empty', 'none']);
    expect(run(['search', 'catalog', '--cursor', 'bogus', '--root', root], searchResponse, 2).error.code).toBe('invalid_cursor');
    expect(run(['search', 'catalog', '-p', '../elsewhere', '--root', root], searchResponse, 2).error.code).toBe('path_outside_workspace');

    // status, explain, outline, resolve.
    expect(run(['status', '--root', root], statusReport, 0).pending).toEqual({ added: 0, modified: 0, deleted: 0 });
    expect(run(['explain', all.hits[0].hit_id, '--root', root], explainResponse, 0).explanation.rank).toBe(1);
    expect(run(['explain', 'not-a-hit', '--root', root], explainResponse, 2).error.code).toBe('invalid_hit_id');
    const outline = run(['outline', path.join(root, file)], outlineResponse, 0);
    expect(outline.symbols.length).toBeGreaterThan(0);
    expect(run(['outline', path.join(root, 'src/NoSuchFile.cs'), '--root', root], outlineResponse, 2).error.code).toBe('not_indexed');
    const member = firstMethod(outline.symbols)!;
    const byKey = run(['resolve', member.member_key, '--root', root], resolveResponse, 0);
    expect(byKey.locations[0]).toMatchObject({ path: file, start_line: member.start_line, member_key: member.member_key });
    const byLine = run(['resolve', `${path.join(root, file)}:${member.start_line}`], resolveResponse, 0);
    expect(byLine.locations[0]).toMatchObject({ path: file, member_key: member.member_key });
    expect(run(['resolve', 'No.Such.Type.Member()', '--root', root], resolveResponse, 1).status).toBe('empty');

    // tree: the root (the current folder is outside it), a folder by its absolute path, nothing indexed there, outside.
    const top = run(['tree', '--root', root], treeResponse, 0);
    expect(top.folders.map((f: { path: string }) => f.path)).toContain('src/');
    const catalog = run(['tree', path.join(root, path.dirname(file))], treeResponse, 0);
    expect(catalog.files.map((f: { path: string }) => f.path)).toContain(file);
    expect(run(['tree', 'no/such/folder', '--root', root], treeResponse, 1).status).toBe('empty');
    expect(run(['tree', '../elsewhere', '--root', root], treeResponse, 2).error.code).toBe('path_outside_workspace');

    // A settings file the workspace cannot be opened with: the verb's own answer with the error, exit 2.
    fs.writeFileSync(path.join(root, '.hci', 'settings.toml'), 'max_files = -3\n');
    try {
      expect(run(['search', 'CatalogService', '--root', root], searchResponse, 2).error.code).toBe('invalid_settings');
    } finally {
      fs.rmSync(path.join(root, '.hci', 'settings.toml'));
    }
  }, 240_000);
});
