// The XML layer under the XAML, MSBuild and .slnx extractors (core/chunk/lang/xml-util.ts): element
// lines, attributes with their lines and decoded values, character data split at references as the
// XML grammar split it, CDATA sections whole, and broken documents as partial trees with `broken` set.
// @lane unit
import { describe, expect, it } from 'vitest';
import { descendants, elementPath, parseXml } from '../core/chunk/lang/xml-util.ts';

describe('parseXml', () => {
  it('elements with their lines, attributes with theirs, decoded values, text pieces', () => {
    const doc = parseXml(
      [
        '<?xml version="1.0"?>',
        '<!-- a comment -->',
        '<Window x:Class="App.Main"',
        '        Title="a &amp; b &#x41;">',
        '  <Grid>',
        '    <TextBlock Text=\'hi\' />',
        '    <Run>one &lt; two<!-- c -->three</Run>',
        '    <Script><![CDATA[ if (a < b) {} ]]></Script>',
        '  </Grid>',
        '</Window>',
      ].join('\n'),
    )!;
    expect(doc.broken).toBe(false);
    const [win] = doc.roots;
    expect(win).toMatchObject({ name: 'Window', start: 3, end: 10 });
    expect(win.attrs).toEqual([
      { name: 'x:Class', value: 'App.Main', line: 3 },
      { name: 'Title', value: 'a & b A', line: 4 },
    ]);
    const all = [...descendants(win)];
    expect(all.map((e) => [elementPath(e), e.start, e.end])).toEqual([
      ['Window > Grid', 5, 9],
      ['Window > Grid > TextBlock', 6, 6],
      ['Window > Grid > Run', 7, 7],
      ['Window > Grid > Script', 8, 8],
    ]);
    expect(all[1].attrs).toEqual([{ name: 'Text', value: 'hi', line: 6 }]);
    expect(all[2].text).toBe('one two three');
    expect(all[3].text).toBe('<![CDATA[ if (a < b) {} ]]>');
  });

  it('broken documents: partial trees, ends at the last line they could reach, never a throw', () => {
    const unclosed = parseXml('<A>\n  <B>\n  <C/>\n')!;
    expect(unclosed.broken).toBe(true);
    expect(unclosed.roots[0]).toMatchObject({ name: 'A', start: 1, end: 4 });
    expect(unclosed.roots[0].children[0]).toMatchObject({ name: 'B', start: 2 });

    const stray = parseXml('<A>\n</B>\n<C x="1"/>\n</A>')!;
    expect(stray.broken).toBe(true);
    expect(stray.roots[0].children.map((e) => e.name)).toEqual(['C']);
    expect(stray.roots[0].end).toBe(4);

    const badAttr = parseXml('<A flag x=1 y="2"></A>')!;
    expect(badAttr.broken).toBe(true);
    expect(badAttr.roots[0].attrs.map((a) => [a.name, a.value])).toEqual([['x', '1'], ['y', '2']]);

    const truncated = parseXml('<A>\n  <B attr="x');
    expect(truncated?.broken).toBe(true);
    expect(truncated?.roots.map((e) => e.name)).toEqual(['A']);

    expect(parseXml('no markup here')).toBeNull();
    expect(parseXml('')).toBeNull();
  });
});
