// Workspace settings: the schema's defaults are exactly the plain defaults a workspace without a
// settings file opens with (core/settings-defaults.ts, which spares that open loading zod and the
// TOML parser), and a settings file still applies and is still validated.
// @lane unit
import { describe, it, expect, afterAll } from 'vitest';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { defaultSettings, validateSettings } from '../core/settings.ts';
import { settingDefaults, SETTING_DEFAULTS } from '../core/settings-defaults.ts';
import { openWorkspace } from '../runtimes/node/workspace.ts';
import { createTmpWorkspace, type TmpWorkspace } from './helpers/tmp-workspace.ts';

const spaces: TmpWorkspace[] = [];
afterAll(async () => {
  for (const w of spaces) await w.cleanup();
});

describe('settings defaults', () => {
  it('the schema fills exactly the plain defaults, key for key', () => {
    expect(validateSettings({})).toEqual(settingDefaults());
    expect(defaultSettings()).toEqual(validateSettings({}));
    expect(Object.keys(settingDefaults()).sort()).toEqual(Object.keys(validateSettings({})).sort());
  });

  it('hands out copies: changing one leaves the defaults alone', () => {
    const s = settingDefaults();
    s.include_extensions.push('.zzz');
    s.max_files = 1;
    expect(SETTING_DEFAULTS.include_extensions).not.toContain('.zzz');
    expect(settingDefaults().max_files).toBe(200_000);
  });

  it('a workspace opens with the defaults without a settings file, and with the file when there is one', async () => {
    const plain = await createTmpWorkspace({ 'a.md': '# A\n' });
    spaces.push(plain);
    const w1 = await openWorkspace(plain.root);
    expect(w1.settings).toEqual(validateSettings({}));
    w1.close();

    const tuned = await createTmpWorkspace({ 'a.md': '# A\n', '.hci/settings.toml': 'max_hits_per_file = 3\ninclude_extensions = ["md"]\n' });
    spaces.push(tuned);
    const w2 = await openWorkspace(tuned.root);
    expect(w2.settings.max_hits_per_file).toBe(3);
    expect(w2.settings.include_extensions).toEqual(['.md']);
    w2.close();

    const bad = await createTmpWorkspace({ 'a.md': '# A\n', '.hci/settings.toml': 'max_hits_per_fiel = 3\n' });
    spaces.push(bad);
    await expect(openWorkspace(bad.root)).rejects.toMatchObject({ code: 'invalid_settings' });
    await expect(openWorkspace(plain.root, { settings: { chunk_lines: 1 } })).rejects.toMatchObject({ code: 'invalid_settings' });
  });
});
