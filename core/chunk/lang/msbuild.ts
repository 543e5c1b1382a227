// MSBuild outlines (.csproj, .props, .targets …) from their XML (xml-util.ts): the Project, its
// PropertyGroups (facts: `TargetFramework=net9.0`), ItemGroups (facts: package references with
// versions, project references, other items), Targets, Imports and Choose/When blocks.
import type { ChunkInput } from '../input.ts';
import type { FileOutline, OutlineNode } from '../outline.ts';
import { Facts, clip, rollUpFacts, squash } from './lite.ts';
import { attr, localName, parseXml, type XElement } from './xml-util.ts';

function fileName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

function value(s: string, max = 100): string {
  return clip(squash(s), max);
}

function conditionFact(el: XElement, facts: Facts): void {
  const c = attr(el, 'Condition');
  if (c) facts.add(`Condition=${value(c)}`);
}

function propertyGroup(el: XElement): { name: string; facts: Facts } {
  const facts = new Facts(60);
  conditionFact(el, facts);
  for (const p of el.children) facts.add(`${p.name}=${value(p.text)}`);
  const label = attr(el, 'Label');
  return { name: label ? `PropertyGroup ${label}` : 'PropertyGroup', facts };
}

function itemVersion(item: XElement): string | undefined {
  return attr(item, 'Version') ?? attr(item, 'VersionOverride') ?? item.children.find((c) => c.name === 'Version')?.text;
}

function itemGroup(el: XElement): { name: string; facts: Facts } {
  const facts = new Facts(60);
  conditionFact(el, facts);
  const types: string[] = [];
  for (const item of el.children) {
    if (!types.includes(item.name)) types.push(item.name);
    const include = attr(item, 'Include');
    const update = attr(item, 'Update');
    const remove = attr(item, 'Remove');
    const version = itemVersion(item);
    if (include !== undefined) facts.add(`${item.name}=${value(include)}${version ? `@${value(version, 60)}` : ''}`);
    else if (update !== undefined) facts.add(`${item.name} Update=${value(update)}${version ? `@${value(version, 60)}` : ''}`);
    else if (remove !== undefined) facts.add(`${item.name} Remove=${value(remove)}`);
  }
  const label = attr(el, 'Label');
  const name = `${localName(el.name)}${types.length ? ` ${types.slice(0, 3).join(', ')}${types.length > 3 ? ', …' : ''}` : ''}${label ? ` (${label})` : ''}`;
  return { name, facts };
}

function targetFacts(el: XElement): Facts {
  const facts = new Facts(40);
  for (const a of ['BeforeTargets', 'AfterTargets', 'DependsOnTargets', 'Inputs', 'Outputs', 'Returns', 'Condition']) {
    const v = attr(el, a);
    if (v) facts.add(`${a}=${value(v)}`);
  }
  const work = [...el.children];
  while (work.length && !facts.full) {
    const t = work.shift()!;
    if (t.name === 'PropertyGroup' || t.name === 'ItemGroup') {
      work.push(...t.children);
      continue;
    }
    const cmd = attr(t, 'Command');
    facts.add(cmd ? `${t.name}=${value(cmd)}` : `task ${t.name}`);
  }
  return facts;
}

function node(el: XElement, kind: string, name: string, facts: Facts | undefined, children: OutlineNode[] = []): OutlineNode {
  const f = facts?.result();
  return {
    kind,
    name: clip(name),
    startLine: el.start,
    endLine: el.end,
    role: children.length ? 'container' : 'unit',
    ...(children.length ? { context: name } : {}),
    ...(f ? { facts: f } : {}),
    children,
  };
}

function collect(parent: XElement): OutlineNode[] {
  const out: OutlineNode[] = [];
  for (const el of parent.children) {
    switch (el.name) {
      case 'PropertyGroup': {
        const g = propertyGroup(el);
        out.push(node(el, 'properties', g.name, g.facts));
        break;
      }
      case 'ItemGroup':
      case 'ItemDefinitionGroup': {
        const g = itemGroup(el);
        out.push(node(el, 'items', g.name, g.facts));
        break;
      }
      case 'Target': {
        const name = attr(el, 'Name') ?? 'Target';
        out.push(node(el, 'target', `Target ${name}`, targetFacts(el), collect(el).filter((n) => n.kind !== 'element')));
        break;
      }
      case 'Import': {
        const facts = new Facts();
        facts.add(`Import=${attr(el, 'Project') ?? ''}`);
        conditionFact(el, facts);
        out.push(node(el, 'import', `Import ${attr(el, 'Project') ?? attr(el, 'Sdk') ?? ''}`.trim(), facts));
        break;
      }
      case 'Sdk': {
        const facts = new Facts();
        facts.add(`Sdk=${attr(el, 'Name') ?? ''}${attr(el, 'Version') ? `@${attr(el, 'Version')}` : ''}`);
        out.push(node(el, 'import', `Sdk ${attr(el, 'Name') ?? ''}`.trim(), facts));
        break;
      }
      case 'Choose':
        out.push(node(el, 'choose', 'Choose', undefined, collect(el)));
        break;
      case 'When':
      case 'Otherwise': {
        const facts = new Facts();
        conditionFact(el, facts);
        const c = attr(el, 'Condition');
        out.push(node(el, 'when', c ? `When ${value(c, 80)}` : el.name, facts, collect(el)));
        break;
      }
      case 'UsingTask': {
        const facts = new Facts();
        for (const a of ['TaskName', 'AssemblyFile', 'AssemblyName', 'TaskFactory']) if (attr(el, a)) facts.add(`${a}=${attr(el, a)}`);
        out.push(node(el, 'task', `UsingTask ${attr(el, 'TaskName') ?? ''}`.trim(), facts));
        break;
      }
      default:
        out.push(node(el, 'element', el.name, undefined));
    }
  }
  return out;
}

export async function extractMsbuild(input: ChunkInput): Promise<FileOutline | null> {
  const doc = parseXml(input.text);
  if (!doc) return null;
  const nodes: OutlineNode[] = [];
  const fileContext: string[] = [];
  for (const root of doc.roots) {
    const facts = new Facts();
    const sdk = attr(root, 'Sdk');
    if (sdk && !fileContext.length) fileContext.push(`Project Sdk=${sdk}`);
    const children = collect(root);
    const name = fileName(input.path);
    nodes.push({ ...node(root, 'project', name, facts, children), role: 'container', context: `Project ${name}` });
  }
  rollUpFacts(nodes, 60);
  return { nodes, ...(fileContext.length ? { fileContext } : {}) };
}
