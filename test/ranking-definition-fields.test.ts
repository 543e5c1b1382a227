// definition_like for fields and consts (core/search/boosts.ts textSignals): a member declared after
// its modifiers is a definition whether it is a method or property (`(`, `{`, `=>`) or a field or
// const, with an initializer (`= …`) or without (`;`); a use of the name — a comparison, an
// argument, a parameter, an expression body — is not. Each name's forms are one regex, one scan of a
// chunk (issue 34: the ten scans were 5-7% of a warm query), finding every form a scan of its own found.
// @lane unit
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
