// asHciError, the one conversion from a thrown value to an answer's error (core/platform.ts): which
// failures are the environment's (io_error, with what to check), which codes cross a boundary as
// they are (a task's or a Worker's hci code), and what is a bug (internal).
// @lane unit
import { describe, it, expect } from 'vitest';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { asHciError, HciError } from '../core/platform.ts';
import { ERRORS } from '../core/contract/errors.ts';

const thrown = (f: () => unknown): unknown => {
  try {
    f();
  } catch (e) {
    return e;
  }
  throw new Error('did not throw');
};

describe('asHciError', () => {
  it('keeps an HciError as it is', () => {
    const e = new HciError('no_index', 'none here', 'run `hci index`');
    expect(asHciError(e)).toBe(e);
  });

  it('turns real file-system failures into io_error, the system words in the message and a hint that fits', () => {
    const missing = thrown(() => fs.readFileSync(path.join(os.tmpdir(), 'hci-no-such-dir', 'x.cs')));
    const e = asHciError(missing);
    expect(e.code).toBe('io_error');
    expect(e.message).toMatch(/ENOENT/);
    expect(e.hint).toMatch(/path exists/);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hci-err-'));
    try {
      const isDir = asHciError(thrown(() => fs.readFileSync(dir)));
      expect(isDir.code).toBe('io_error');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
    expect(asHciError(Object.assign(new Error('no space left on device'), { code: 'ENOSPC' })).hint).toMatch(/disk space/);
    expect(asHciError(Object.assign(new Error('permission denied'), { code: 'EACCES' })).hint).toMatch(/\.hci folder/);
  });

  it('reads the browser storage failures by their DOMException name', () => {
    const quota = asHciError(new DOMException('the quota has been exceeded', 'QuotaExceededError'));
    expect(quota).toMatchObject({ code: 'io_error', message: 'the quota has been exceeded' });
    expect(quota.hint).toMatch(/quota/);
    expect(asHciError(new DOMException('gone', 'NotFoundError')).code).toBe('io_error');
    // Not a storage failure: a bug.
    expect(asHciError(new DOMException('bad state', 'InvalidStateError')).code).toBe('internal');
  });

  it('keeps an hci code that crossed a boundary (a task error, a Worker error) with its message and hint', () => {
    expect(asHciError({ code: 'index_busy', message: 'held', hint: 'wait' })).toMatchObject({ code: 'index_busy', message: 'held', hint: 'wait' });
    expect(ERRORS).toHaveProperty('index_busy');
  });

  it('calls everything else internal: Node programming errors, odd codes, plain errors and non-errors', () => {
    const nodeErr = thrown(() => fs.readFileSync(42 as unknown as string, { encoding: 'nope' as BufferEncoding }));
    expect((nodeErr as { code: string }).code).toMatch(/^ERR_/);
    expect(asHciError(nodeErr).code).toBe('internal');
    expect(asHciError({ code: 'toString', message: 'x' }).code).toBe('internal');
    expect(asHciError({ code: 'EINVAL', message: 'x' }).code).toBe('internal');
    expect(asHciError(new TypeError('x is undefined'))).toMatchObject({ code: 'internal', message: 'x is undefined' });
    expect(asHciError('just a string')).toMatchObject({ code: 'internal', message: 'just a string' });
  });
});
