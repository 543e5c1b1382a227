// The settings' plain defaults (core/settings-defaults.ts, what a workspace without a settings file
// runs with, never loading zod) against the schema (core/settings.ts): the same values for every key,
// fresh copies each time, and a workspace opened with a settings file or overrides still validated.
import { describe, it, expect } from 'vitest';
import { defaultSettings, SETTINGS_DEFAULTS } from '../core/settings-defaults.ts';
import { settingsSchema, validateSettings } from '../core/settings.ts';
import { HciWorkspace } from '../core/workspace.ts';
import { createMemoryWorkspaceFs } from '../core/memory-fs.ts';
import { createMemoryIndexStorage } from '../core/index.ts';

describe('settings defaults', () => {
  it('are the schema\'s defaults, key for key', () => {
    expect(defaultSettings()).toEqual(settingsSchema.parse({}));
    expect(Object.keys(SETTINGS_DEFAULTS).sort()).toEqual(Object.keys(settingsSchema.parse({})).sort());
    // And they are valid settings themselves.
    expect(validateSettings(defaultSettings())).toEqual(defaultSettings());
  });

  it('hands out fresh copies (a caller changing its lists changes no one else\'s)', () => {
    const a = defaultSettings();
    a.include_extensions.push('.zzz');
    a.exclude_path_segments.length = 0;
    expect(defaultSettings().include_extensions).not.toContain('.zzz');
    expect(defaultSettings().exclude_path_segments.length).toBeGreaterThan(5);
    const parsed = settingsSchema.parse({});
    parsed.ignore_files.push('x');
    expect(settingsSchema.parse({}).ignore_files).toEqual(['.gitignore', '.hciignore']);
  });

  it('a workspace without a settings file gets them; a settings file or overrides are still validated', async () => {
    const open = (files: Record<string, string>, settings?: Record<string, unknown>) =>
      HciWorkspace.open({ fs: createMemoryWorkspaceFs('ws', files), storage: createMemoryIndexStorage() }, { settings });
    const plain = await open({ 'a.cs': 'class A {}' });
    expect(plain.settings).toEqual(settingsSchema.parse({}));
    plain.close();
    const withFile = await open({ '.hci/settings.toml': 'chunk_lines = 40\n' });
    expect(withFile.settings.chunk_lines).toBe(40);
    withFile.close();
    await expect(open({ '.hci/settings.toml': 'chunk_lines = 1\n' })).rejects.toMatchObject({ code: 'invalid_settings' });
    await expect(open({}, { max_files: -1 })).rejects.toMatchObject({ code: 'invalid_settings' });
  });
});
