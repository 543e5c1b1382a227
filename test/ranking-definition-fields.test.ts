// definition_like for fields and consts (core/search/boosts.ts textSignals): a member declared after
// its modifiers is a definition whether it is a method or property (`(`, `{`, `=>`) or a field or
// const, with an initializer (`= …`) or without (`;`); a use of the name — a comparison, an
// argument, a parameter, an expression body — is not. Each name's forms are one regex (issue 34: the ten
// scans were 5-7% of a warm query), tried only where the name occurs as a whole word (a sticky regex,
// each form's context before the name a lookbehind: the one alternation tried at every position was
// 11% of a warm query's profile), finding exactly what the alternation finds.
// @lane unit
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it, expect } from 'vitest';
import { definitionTargets, textSignals } from '../core/search/boosts.ts';
import { parseQuery } from '../core/search/query.ts';

const defines = (text: string, name: string) => textSignals(text, name.toLowerCase(), definitionTargets(parseQuery(name)), new Map()).definition;

describe('definition_like for fields and consts', () => {
  it('takes a field or const declaration, with or without an initializer, as a definition', () => {
    expect(defines('    public const int MaxRetryCount = 5;', 'MaxRetryCount')).toBe(true);
    expect(defines('    private static readonly TimeSpan DefaultTimeout = TimeSpan.FromSeconds(30);', 'DefaultTimeout')).toBe(true);
    expect(defines('    [Obsolete] internal string DisplayName;', 'DisplayName')).toBe(true);
    expect(defines('    public static readonly StyledProperty<bool> IsOpenProperty =\n        AvaloniaProperty.Register<Popup, bool>(nameof(IsOpen));', 'IsOpenProperty')).toBe(true);
  });

  it('takes a YAML key as a definition, in a list item or not, at any indentation', () => {
    expect(defines('RetryPolicy:\n  Max: 3', 'RetryPolicy')).toBe(true);
    expect(defines('steps:\n  - RetryPolicy: exponential', 'RetryPolicy')).toBe(true);
    expect(defines('steps:\n\t-\t RetryPolicy:', 'RetryPolicy')).toBe(true);
    expect(defines('      -RetryPolicy:\n', 'RetryPolicy')).toBe(true);
    // One dash only, and the key alone before the colon.
    expect(defines('  - - RetryPolicy: 1', 'RetryPolicy')).toBe(false);
    expect(defines('  - RetryPolicyName: 1', 'RetryPolicy')).toBe(false);
    expect(defines('  -- RetryPolicy: 1', 'RetryPolicy')).toBe(false);
  });

  it('does not take a use of the name as its definition', () => {
    expect(defines('        if (count == MaxRetryCount) return;', 'MaxRetryCount')).toBe(false);
    expect(defines('    public int Retries => MaxRetryCount;', 'MaxRetryCount')).toBe(false);
    expect(defines('    public void Retry(int MaxRetryCount) { }', 'MaxRetryCount')).toBe(false);
    expect(defines('    public bool Same(int x) => x == MaxRetryCount;', 'MaxRetryCount')).toBe(false);
  });

  it('finds every form of definition with one regex per name, one scan of the chunk', () => {
    const forms: Array<[string, string]> = [
      ['public sealed class OrderLedger\n{', 'OrderLedger'],
      ['    public decimal OrderLedger(int n)\n    {', 'OrderLedger'],
      ['  OrderLedger(items) {\n    return 1;\n  }', 'OrderLedger'],
      ['const OrderLedger = () => 1;', 'OrderLedger'],
      ['@inject IOrders OrderLedger', 'OrderLedger'],
      ['<Grid x:Name="OrderLedger" />', 'OrderLedger'],
      ['{\n  "OrderLedger": {\n    "Size": 3\n  }\n}', 'OrderLedger'],
      ['jobs:\n  OrderLedger:\n    runs-on: linux', 'OrderLedger'],
      ['[OrderLedger]\nOrderLedger = 4', 'OrderLedger'],
      ['.OrderLedger > span {\n  color: red;\n}', 'OrderLedger'],
    ];
    for (const [text, name] of forms) expect(defines(text, name), text).toBe(true);
    const cache = new Map<string, RegExp[]>();
    textSignals('    var total = OrderLedger.Sum();', 'orderledger', ['OrderLedger'], cache);
    expect(cache.get('OrderLedger')).toHaveLength(1);
  });
});

/** The forms as one alternation tried at every position (main before issue 34's anchoring), the reference. */
function alternation(ident: string): RegExp {
  const id = ident.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const mods = '(?:public|private|protected|internal|static|async|override|virtual|abstract|sealed|partial|extern|unsafe|new|readonly|required|const|export|default)';
  const forms = [
    `\\b(?:class|interface|record|struct|enum|function|namespace|module|delegate|event)\\s+(?:[\\w.]+\\.)?${id}\\b`,
    `^[ \\t]*(?:\\[[^\\]\\n]*\\][ \\t]*)*(?:${mods}\\s+)+[\\w<>\\[\\],.?() \\t]*?\\b${id}\\s*(?:[(<{;]|=>|=(?!=))`,
    `^[ \\t]*(?:async\\s+)?${id}\\s*\\([^)\\n]*\\)\\s*\\{`,
    `\\b(?:const|let|var)\\s+${id}\\s*=`,
    `@inject\\s+[\\w.<>?]+\\s+${id}\\b`,
    `\\bx:(?:Name|Key|Class)\\s*=\\s*"(?:[\\w.]+\\.)?${id}"`,
    `^[ \\t]*"${id}"\\s*:`,
    `^[ \\t]*(?:-[ \\t]*)?${id}\\s*:(?:\\s|$)`,
    `^[ \\t]*\\[?${id}\\]?\\s*=`,
    `(?:^|[\\s,>+~}])[.#]${id}(?![\\w-])[^{};\\n]*\\{`,
  ];
  return new RegExp(forms.map((f) => `(?:${f})`).join('|'), 'm');
}

describe('definition_like where the name occurs', () => {
  it('tries the forms only at the whole-word occurrences of the name', () => {
    const cache = new Map<string, RegExp[]>();
    textSignals('', 'orderledger', ['OrderLedger'], cache);
    const re = cache.get('OrderLedger')![0];
    const tried: Array<{ sticky: boolean; at: number }> = [];
    const original = RegExp.prototype.test;
    RegExp.prototype.test = function (this: RegExp, s: string) {
      if (this === re) tried.push({ sticky: this.sticky, at: this.lastIndex });
      return original.call(this, s);
    };
    try {
      const text = 'var a = OrderLedgers.Count;\n// OrderLedger used here\nreturn OrderLedger.Sum();\n';
      expect(textSignals(text, 'orderledger', ['OrderLedger'], cache).definition).toBe(false);
      // The two whole-word uses, each at its place; `OrderLedgers` is not tried.
      const first = text.indexOf('OrderLedger used');
      expect(tried).toEqual([{ sticky: true, at: first }, { sticky: true, at: text.indexOf('OrderLedger', first + 1) }]);
      tried.length = 0;
      expect(textSignals('no such name here, only OrderLedgerX and XOrderLedger', 'orderledger', ['OrderLedger'], cache).definition).toBe(false);
      expect(tried).toEqual([]);
      expect(textSignals('    public sealed class OrderLedger\n', 'orderledger', ['OrderLedger'], cache).definition).toBe(true);
      expect(tried).toEqual([{ sticky: true, at: 24 }]);
    } finally {
      RegExp.prototype.test = original;
    }
  });

  it('finds a definition exactly where the forms tried at every position find one (every name of the sample workspace)', () => {
    const root = path.join(import.meta.dirname, 'sample-workspace');
    const files = (fs.readdirSync(root, { recursive: true }) as string[]).map((f) => path.join(root, f)).filter((f) => fs.statSync(f).isFile());
    let pairs = 0;
    let found = 0;
    const refs = new Map<string, RegExp>();
    const cache = new Map<string, RegExp[]>();
    for (const file of files) {
      const text = fs.readFileSync(file, 'utf8');
      // (Not a config key path, `A__B`: its segments are looked for as nested keys instead.)
      const names = [...new Set(text.match(/\b[A-Z]\w{3,}\b/g) ?? [])].filter((n) => !n.includes('__'));
      for (const name of names) {
        let ref = refs.get(name);
        if (!ref) refs.set(name, (ref = alternation(name)));
        const want = ref.test(text);
        expect(textSignals(text, 'zz', [name], cache).definition, `${path.relative(root, file)}: ${name}`).toBe(want);
        pairs++;
        if (want) found++;
      }
    }
    expect(pairs).toBeGreaterThan(1000);
    expect(found).toBeGreaterThan(100);
  });
});
