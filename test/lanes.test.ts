// The test lanes (test/lanes.ts) hold: no test file names an unknown lane or two, the unit lane
// really cannot start a child process, its files need no build, and CI's Node 22 phase runs the
// lanes lanes.ts says it runs.
// @lane unit
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { filesByLane, laneTags, LANES, NODE22_LANES } from './lanes.ts';
import { tmpDir } from './helpers/tmp-workspace.ts';
import { denoAlreadyRan, denoBinary, findDeno, titled } from './helpers/runtimes.ts';

const REPO = path.resolve(import.meta.dirname, '..');

describe('test lanes', () => {
  it('no test file names an unknown lane or two lanes', () => {
    const wrong = laneTags().filter((t) => t.lanes.length > 1 || (t.lanes.length === 1 && !(t.lanes[0] in LANES)));
    expect(wrong, 'one `// @lane <name>` line at most (test/lanes.ts lists the lanes)').toEqual([]);
    expect(filesByLane().unit.length).toBeGreaterThan(30);
  });

  it('reads the tags of files in sub-folders; no tag is the cli lane, two lanes or an unknown one untagged', () => {
    const dir = tmpDir('hci-lanes-');
    try {
      fs.mkdirSync(path.join(dir, 'sub'));
      fs.writeFileSync(path.join(dir, 'a.test.ts'), '// A.\n// @lane cli\nimport x from "y";\n');
      fs.writeFileSync(path.join(dir, 'sub', 'b.test.ts'), '// @lane unit\n');
      fs.writeFileSync(path.join(dir, 'c.test.ts'), '// no lane\n');
      fs.writeFileSync(path.join(dir, 'd.test.ts'), '// @lane unit\n// @lane cli\n');
      fs.writeFileSync(path.join(dir, 'e.test.ts'), '// @lane nowhere\n');
      fs.writeFileSync(path.join(dir, 'helper.ts'), '// @lane unit\n');
      const lanes = filesByLane(dir);
      expect(lanes.cli).toEqual(['test/a.test.ts', 'test/c.test.ts']);
      expect(lanes.unit).toEqual(['test/sub/b.test.ts']);
      expect(lanes.untagged).toEqual(['test/d.test.ts', 'test/e.test.ts']);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the unit lane cannot start a child process', () => {
    expect(() => spawnSync('true')).toThrow(/unit lane: child_process\.spawnSync/);
  });

  it('unit-lane files use no build output (dist/ or the CLI binary)', () => {
    const built = /\bHCI_BIN\b|bin\/hci\.js|'bin', 'hci\.js'|\bdist\/(?:core|runtimes|bench|grammars)\b|REPO, 'dist'/;
    expect(filesByLane().unit.filter((f) => f !== 'test/lanes.test.ts' && built.test(fs.readFileSync(path.join(REPO, f), 'utf8')))).toEqual([]);
  });

  it('CI runs every lane on Node 24 and the Node 22 lanes on Node 22', () => {
    const ci = fs.readFileSync(path.join(REPO, '.ci', 'run'), 'utf8');
    expect(ci).toMatch(/^npm test$/m);
    const node22 = /^(?:HCI_DENO=ran )?npx vitest run ((?:--project \w+ ?)+)$/m.exec(ci);
    expect(node22, '.ci/run: the Node 22 phase as `npx vitest run --project <lane>…`').not.toBeNull();
    expect([...node22![1].matchAll(/--project (\w+)/g)].map((m) => m[1])).toEqual([...NODE22_LANES]);
    const scripts = (JSON.parse(fs.readFileSync(path.join(REPO, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
    for (const lane of Object.keys(LANES)) expect(scripts[`test:${lane}`], `npm run test:${lane}`).toMatch(new RegExp(`vitest run --project ${lane}$`));
    expect(scripts['test:unit'], 'the unit lane needs no build').not.toMatch(/build/);
  });

  it('CI skips Deno variants only in the Node 22 phase, after the whole suite ran them with Deno required', () => {
    const ci = fs.readFileSync(path.join(REPO, '.ci', 'run'), 'utf8');
    const required = ci.indexOf('export HCI_REQUIRE_RUNTIMES=1');
    const suite = ci.search(/^npm test$/m);
    const ran = [...ci.matchAll(/HCI_DENO=ran/g)].map((m) => m.index).filter((i) => !ci.slice(ci.lastIndexOf('\n', i) + 1, i).trimStart().startsWith('#'));
    expect(required).toBeGreaterThan(-1);
    expect(required).toBeLessThan(suite);
    expect(ran.length).toBe(1);
    expect(ran[0]).toBeGreaterThan(suite);
  });

  it('HCI_DENO=ran skips the Deno suites without failing where runtimes are required, and says why', () => {
    const saved = { deno: process.env.HCI_DENO, req: process.env.HCI_REQUIRE_RUNTIMES };
    try {
      process.env.HCI_REQUIRE_RUNTIMES = '1';
      process.env.HCI_DENO = 'ran';
      expect(denoAlreadyRan()).toBe(true);
      expect(findDeno()).toBeNull();
      expect(denoBinary()).toBe('');
      expect(titled('suite', { Deno: '' })).toBe("suite [SKIPPED: Deno ran in this CI run's Node 24 phase]");
      expect(titled('suite', { Deno: '', Chromium: '' })).toBe('suite [SKIPPED: Deno and Chromium missing]');
      process.env.HCI_DENO = 'none';
      expect(() => denoBinary()).toThrow(/Deno is missing/);
    } finally {
      for (const [k, v] of [['HCI_DENO', saved.deno], ['HCI_REQUIRE_RUNTIMES', saved.req]] as const) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
    }
  });
});
