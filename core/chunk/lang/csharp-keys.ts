// Member keys and generator-derived names for C#: how a declaration's key is spelled, independent
// of the syntax tree. Keys contain no line numbers, so they survive line drift.
//
// Format (documented in csharp.ts):
//   type            Ns.Outer+Inner            Ns.Repository<T>          (global namespace: Outer+Inner)
//   method          Ns.Type.Find(int,string?) Ns.Type.Map<TOut>(this IEnumerable<T>,params string[])
//   constructor     Ns.Type.#ctor(int)        static: Ns.Type.#cctor()
//   destructor      Ns.Type.~Type()
//   property/event  Ns.Type.Name              explicit interface: Ns.Type.IFoo.Name
//   field           Ns.Type.fieldName
//   indexer         Ns.Type.this[int]
//   operator        Ns.Type.operator +(Money,Money)
//   conversion      Ns.Type.implicit operator decimal(Money)
//   top level       <top-level>.LocalFunction(int)   <top-level>.<statements>

/** The scope of top-level statements and their local functions. */
export const TOP_LEVEL_KEY = '<top-level>';

/**
 * Whitespace-normalises a type, parameter or type-parameter list as written: comments dropped,
 * whitespace collapsed, and removed next to punctuation (`Dictionary<string, int>` →
 * `Dictionary<string,int>`, `int [ ]` → `int[]`); spaces between words stay (`ref int`).
 */
export function normalizeSpelling(text: string): string {
  if (text.includes('/')) text = text.replace(/\/\*[\s\S]*?\*\//g, ' ').replace(/\/\/[^\n]*/g, ' ');
  return text
    .replace(/\s+/g, ' ')
    .replace(/\s*([<>,[\]()?*:.=&|])\s*/g, '$1')
    .trim();
}

/** Joins a namespace and a type name: `Ns.Name`, or `Name` in the global namespace. */
export function typeKeyIn(namespace: string, outerTypeKey: string | null, nameWithTypeParams: string): string {
  if (outerTypeKey) return `${outerTypeKey}+${nameWithTypeParams}`;
  return namespace ? `${namespace}.${nameWithTypeParams}` : nameWithTypeParams;
}

/** `Owner.member`, where owner is a type key, `<top-level>` or a namespace (error recovery). */
export function memberKeyIn(owner: string, member: string): string {
  return owner ? `${owner}.${member}` : member;
}

/**
 * The property CommunityToolkit.Mvvm's `[ObservableProperty]` generates for a field:
 * a leading `m_` or `_` is dropped, then the first letter is upper-cased (`_selectedOrder` → `SelectedOrder`).
 */
export function observablePropertyName(field: string): string | null {
  let name = field.startsWith('m_') ? field.slice(2) : field.replace(/^_+/, '');
  if (!name) return null;
  name = name[0].toUpperCase() + name.slice(1);
  return name === field ? null : name;
}

/**
 * The command property `[RelayCommand]` generates for a method: an `On` prefix (before an upper-case
 * letter) and an `Async` suffix are dropped, then `Command` is appended
 * (`RefreshOrdersAsync` → `RefreshOrdersCommand`, `OnSave` → `SaveCommand`).
 */
export function relayCommandName(method: string): string {
  let name = method;
  if (name.length > 2 && name.startsWith('On') && /[A-Z]/.test(name[2])) name = name.slice(2);
  if (name.endsWith('Async') && name.length > 5) name = name.slice(0, -5);
  return `${name}Command`;
}

/** `HttpGetAttribute` / `Microsoft.AspNetCore.Mvc.HttpGet` → `HttpGet`. */
export function attributeShortName(name: string): string {
  const last = name.slice(name.lastIndexOf('.') + 1).replace(/^global::/, '');
  const bare = last.replace(/<.*$/, '');
  return bare.length > 9 && bare.endsWith('Attribute') ? bare.slice(0, -9) : bare;
}

/**
 * An ASP.NET Core route from a controller-level template and an action template:
 * `[controller]`/`[action]` tokens replaced, `~/` and `/` templates absolute.
 */
export function combineRoute(prefix: string | null, template: string | null, controller: string, action: string): string {
  let route: string;
  if (template !== null && (template.startsWith('/') || template.startsWith('~/'))) route = template.replace(/^~/, '');
  else if (prefix !== null && template) route = `${prefix.replace(/\/+$/, '')}/${template}`;
  else route = template ?? prefix ?? '';
  route = route.replace(/\[controller\]/gi, controller.replace(/Controller$/, '')).replace(/\[action\]/gi, action);
  return route.startsWith('/') ? route : `/${route}`;
}

const MAP_GROUP = /\b(\w+)\s*=\s*[\w.]+?\s*\.\s*MapGroup\s*\(\s*@?"([^"\n]*)"/g;
const MAP_CALL = /\b(\w+)\s*\.\s*Map(Get|Post|Put|Delete|Patch|Methods|HealthChecks|Hub|Fallback\w*|Blazor\w*|RazorPages|Controllers|Static\w*)?(?:<[^<>()\n]*>)?\s*\(\s*@?"([^"\n]*)"/g;

/** Minimal-API endpoints in a code span: `route GET /api/catalog/{id:int}` (MapGroup prefixes applied). */
export function minimalApiRoutes(text: string): string[] {
  if (!text.includes('Map')) return [];
  const groups = new Map<string, string>();
  for (const m of text.matchAll(MAP_GROUP)) groups.set(m[1], m[2]);
  const out: string[] = [];
  for (const m of text.matchAll(MAP_CALL)) {
    const kind = m[2] ?? '';
    const prefix = groups.get(m[1]) ?? '';
    let path = m[3];
    if (prefix) path = path === '/' || path === '' ? prefix : `${prefix.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`;
    const verb = /^(Get|Post|Put|Delete|Patch)$/.test(kind) ? `${kind.toUpperCase()} ` : '';
    out.push(`route ${verb}${path}`);
  }
  return out;
}
