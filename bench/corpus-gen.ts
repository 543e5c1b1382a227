// A deterministic generated .NET solution of any size, for benchmarks: a modular monolith with
// Domain / Application / Infrastructure / Web (Blazor) / Desktop (Avalonia) / Tests projects, C#
// entities, services, validators, EF configurations, Razor pages with code-behind and scoped CSS,
// AXAML views with view models, appsettings JSON, Kubernetes YAML, CI workflows and Markdown docs.
// The same (files, seed) always gives byte-identical files. It also records facts it planted
// (a service class, a method, a config key path, a Razor route, an AXAML x:Name → the file that
// defines it) as a golden set and a fixed benchmark query set.
//
//   node dist/bench/corpus-gen.js --files 5000 --out /tmp/gen5k [--seed 7] [--golden golden.jsonl]
import * as fs from 'node:fs';
import * as path from 'node:path';
import { isMain, optInt, optString, parseArgs } from './lib/util.ts';
import type { GoldenQuery } from './lib/queries.ts';

export interface GenOptions {
  files: number;
  seed?: number;
}

export interface GenResult {
  root: string;
  files: number;
  bytes: number;
  golden: GoldenQuery[];
  /** A fixed query set for latency measurements (identifiers, phrases, config keys, questions). */
  queries: string[];
}

type Rng = () => number;

/** mulberry32: small, fast, good enough for test data and timings; seeded for reproducibility. */
export function mulberry32(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const COMPANIES = ['Fabrikam', 'Northwind', 'Tailspin', 'Woodgrove', 'Litware', 'Wingtip', 'Proseware', 'Adatum'];
const PRODUCTS = ['Logistics', 'Commerce', 'Operations', 'Platform', 'Backoffice', 'Marketplace'];
const MODULES = [
  'Catalog', 'Ordering', 'Billing', 'Shipping', 'Inventory', 'Customers', 'Identity', 'Reporting', 'Notifications', 'Pricing',
  'Returns', 'Suppliers', 'Warehouse', 'Payments', 'Loyalty', 'Fulfillment', 'Procurement', 'Compliance', 'Scheduling', 'Fleet',
  'Support', 'Marketing', 'Analytics', 'Tenancy',
];
const NOUNS = [
  'Order', 'Invoice', 'Shipment', 'Parcel', 'Carrier', 'Route', 'Supplier', 'PurchaseOrder', 'StockItem', 'Bin', 'Pallet', 'Customer',
  'Account', 'Subscription', 'Coupon', 'Voucher', 'PriceList', 'Tariff', 'Refund', 'ReturnRequest', 'Payment', 'Settlement', 'Ledger',
  'JournalEntry', 'TaxRule', 'Notification', 'MessageTemplate', 'Report', 'Dashboard', 'Schedule', 'Vehicle', 'Driver', 'Ticket',
  'Campaign', 'Segment', 'Tenant', 'Role', 'Permission', 'AuditEntry', 'Zone', 'Dock', 'Manifest', 'Waybill', 'Quote', 'Contract',
  'Budget', 'Forecast', 'Batch', 'Lot', 'SerialNumber', 'Category', 'Product', 'Variant', 'Bundle', 'Review', 'Rating', 'Wishlist', 'Basket',
];
const QUALIFIERS = [
  '', 'Recurring', 'Scheduled', 'Draft', 'Archived', 'Bulk', 'Regional', 'Partner', 'External', 'Seasonal', 'Pending', 'Legacy',
  'Express', 'Consolidated', 'Priority', 'Internal', 'Provisional', 'Deferred', 'Standing', 'Blanket', 'Shared', 'Virtual', 'Split',
];
const VERBS = [
  'Approve', 'Cancel', 'Archive', 'Recalculate', 'Validate', 'Reserve', 'Release', 'Publish', 'Schedule', 'Assign', 'Merge', 'Split',
  'Reconcile', 'Export', 'Import', 'Close', 'Reopen', 'Escalate', 'Expire', 'Refresh', 'Synchronize', 'Allocate', 'Submit', 'Reject', 'Confirm',
];
const CONCEPTS = ['Totals', 'Balance', 'Capacity', 'Eligibility', 'Deadline', 'Allocation', 'Discount', 'Weight', 'Volume', 'Margin', 'Risk', 'Priority', 'Quota', 'Threshold', 'Window', 'Backlog'];
const PROPS: Array<[string, string]> = [
  ['string', 'Reference'], ['string', 'Description'], ['decimal', 'Amount'], ['decimal', 'TaxRate'], ['int', 'Quantity'],
  ['DateTimeOffset', 'CreatedAtUtc'], ['DateTimeOffset?', 'ClosedAtUtc'], ['Guid', 'OwnerId'], ['string', 'CountryCode'],
  ['bool', 'IsActive'], ['int', 'Priority'], ['decimal', 'WeightKg'], ['string?', 'Notes'], ['TimeSpan', 'HoldWindow'],
  ['string', 'ExternalId'], ['int', 'RetryCount'], ['decimal', 'DiscountPercent'], ['string', 'Currency'], ['int', 'Revision'],
  ['Guid', 'TenantId'], ['string', 'DisplayName'], ['decimal', 'CreditLimit'], ['int', 'SlaHours'], ['string', 'RegionCode'],
];
const STATES = ['Draft', 'Submitted', 'Approved', 'InProgress', 'OnHold', 'Completed', 'Cancelled', 'Expired', 'Rejected'];
const REASONS = [
  'the carrier cut-off time has passed', 'the tenant exceeded its monthly quota', 'the approval window is closed',
  'a newer revision was already submitted', 'the credit limit would be exceeded', 'the warehouse zone is locked for counting',
  'the customer opted out of notifications', 'the price list is not yet effective', 'the SLA would be breached',
];
const SENTENCES = [
  'Keeps the {e} aggregate consistent while {m} work is in flight.',
  'Handles {e} requests from the storefront and the back office alike.',
  'All writes go through one unit of work so {e} changes and their audit entries commit together.',
  'Reads use no-tracking queries; the {m} read model is eventually consistent.',
  'Limits are configured under {m}:{E}s in appsettings.json and validated at startup.',
  'Raises domain events so that {m} projections and notifications stay in sync.',
  'Time comes from TimeProvider so tests can fast-forward the {e} lifecycle.',
];

const kebab = (s: string) => s.replace(/([a-z0-9])([A-Z])/g, '$1-$2').toLowerCase();
const lowerFirst = (s: string) => s[0].toLowerCase() + s.slice(1);
const words = (s: string) => kebab(s).replace(/-/g, ' ');

interface Entity {
  name: string;
  module: string;
  noun: string;
  props: Array<[string, string]>;
  verbs: string[];
  concept: string;
  hasDesktop: boolean;
  hasCodeBehind: boolean;
  states: string[];
}

class Gen {
  readonly r: Rng;
  readonly files = new Map<string, string>();
  readonly golden: GoldenQuery[] = [];
  readonly ns: string;
  readonly company: string;
  readonly product: string;
  constructor(seed: number) {
    this.r = mulberry32(seed);
    this.company = this.pick(COMPANIES);
    this.product = this.pick(PRODUCTS);
    this.ns = `${this.company}.${this.product}`;
  }
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.r() * (hi - lo + 1));
  }
  pick<T>(xs: readonly T[]): T {
    return xs[Math.floor(this.r() * xs.length)];
  }
  sample<T>(xs: readonly T[], n: number): T[] {
    const copy = [...xs];
    const out: T[] = [];
    while (out.length < n && copy.length) out.push(copy.splice(Math.floor(this.r() * copy.length), 1)[0]);
    return out;
  }
  sentence(e: Entity): string {
    return this.pick(SENTENCES).replace(/\{e\}/g, words(e.name)).replace(/\{E\}/g, e.name).replace(/\{m\}/g, e.module);
  }
  put(p: string, content: string): void {
    this.files.set(p, content.endsWith('\n') ? content : `${content}\n`);
  }
  project(kind: string): string {
    return `src/${this.ns}.${kind}`;
  }
}

// ---------------------------------------------------------------------------------------------
// Files of one entity

function entityFile(g: Gen, e: Entity): string {
  const L: string[] = [];
  L.push(`using ${g.ns}.Domain.Common;`, '', `namespace ${g.ns}.Domain.${e.module};`, '');
  L.push(`/// <summary>Lifecycle states of a <see cref="${e.name}"/>.</summary>`, `public enum ${e.name}Status`, '{');
  e.states.forEach((s, i) => L.push(`    ${s} = ${i},`));
  L.push('}', '');
  L.push('/// <summary>', `/// ${g.sentence(e)}`, '/// </summary>', `public sealed class ${e.name} : AggregateRoot<Guid>`, '{');
  L.push(`    private ${e.name}()`, '    {', '        // Required by EF Core.', '    }', '');
  const args = e.props.slice(0, 3);
  L.push(`    private ${e.name}(Guid id, ${args.map(([t, n]) => `${t} ${lowerFirst(n)}`).join(', ')})`, '    {', '        Id = id;');
  for (const [, n] of args) L.push(`        ${n} = ${lowerFirst(n)};`);
  L.push(`        Status = ${e.name}Status.${e.states[0]};`, '    }', '');
  for (const [t, n] of e.props) L.push(`    public ${t} ${n} { get; private set; }`, '');
  L.push(`    public ${e.name}Status Status { get; private set; }`, '');
  L.push(`    public static ${e.name} Create(${args.map(([t, n]) => `${t} ${lowerFirst(n)}`).join(', ')})`, '    {');
  for (const [t, n] of args) if (t === 'string') L.push(`        ArgumentException.ThrowIfNullOrWhiteSpace(${lowerFirst(n)});`);
  L.push(`        var entity = new ${e.name}(Guid.NewGuid(), ${args.map(([, n]) => lowerFirst(n)).join(', ')});`);
  L.push(`        entity.Raise(new ${e.name}Created(entity.Id, DateTimeOffset.UtcNow));`, '        return entity;', '    }', '');
  for (const verb of e.verbs) {
    const target = g.pick(e.states.slice(1));
    L.push(`    /// <summary>${verb}s the ${words(e.name)}; fails when ${g.pick(REASONS)}.</summary>`);
    L.push(`    public Result<${e.name}> ${verb}(DateTimeOffset nowUtc)`, '    {');
    L.push(`        if (Status is ${e.name}Status.${e.states[e.states.length - 1]} or ${e.name}Status.${g.pick(e.states)})`, '        {');
    L.push(`            return Error.Conflict("${lowerFirst(e.module)}.${kebab(e.name)}.cannot_${verb.toLowerCase()}", $"${e.name} {Id} is {Status} and cannot be ${verb.toLowerCase()}ed.");`, '        }', '');
    L.push(`        Status = ${e.name}Status.${target};`, `        Raise(new ${e.name}StatusChanged(Id, Status, nowUtc));`, '        return this;', '    }', '');
  }
  L.push('}', '');
  L.push(`public sealed record ${e.name}Created(Guid ${e.name}Id, DateTimeOffset OccurredAtUtc) : IDomainEvent;`, '');
  L.push(`public sealed record ${e.name}StatusChanged(Guid ${e.name}Id, ${e.name}Status Status, DateTimeOffset OccurredAtUtc) : IDomainEvent;`);
  return L.join('\n');
}

function serviceInterface(g: Gen, e: Entity, methods: string[]): string {
  const L = ['using ' + `${g.ns}.Domain.Common;`, `using ${g.ns}.Domain.${e.module};`, '', `namespace ${g.ns}.Application.${e.module};`, ''];
  L.push(`/// <summary>Use cases for ${words(e.name)}s in the ${e.module} module.</summary>`, `public interface I${e.name}Service`, '{');
  L.push(`    Task<${e.name}Dto?> Get${e.name}ByIdAsync(Guid id, CancellationToken cancellationToken = default);`, '');
  L.push(`    Task<IReadOnlyList<${e.name}Dto>> List${e.name}sAsync(int page = 1, int pageSize = 50, CancellationToken cancellationToken = default);`, '');
  for (const m of methods) L.push(`    Task<Result<${e.name}Dto>> ${m}(Guid id, CancellationToken cancellationToken = default);`, '');
  L.push('}', '', `public sealed record ${e.name}Dto(`, '    Guid Id,');
  e.props.forEach(([t, n], i) => L.push(`    ${t} ${n}${i === e.props.length - 1 ? ',' : ','}`));
  L.push(`    ${e.name}Status Status);`);
  return L.join('\n');
}

function serviceFile(g: Gen, e: Entity, methods: string[], calcMethod: string): string {
  const L: string[] = [];
  L.push('using Microsoft.EntityFrameworkCore;', 'using Microsoft.Extensions.Logging;', 'using Microsoft.Extensions.Options;');
  L.push(`using ${g.ns}.Application.Common;`, `using ${g.ns}.Domain.Common;`, `using ${g.ns}.Domain.${e.module};`, '');
  L.push(`namespace ${g.ns}.Application.${e.module};`, '', '/// <summary>', `/// ${g.sentence(e)}`, `/// ${g.sentence(e)}`, '/// </summary>');
  L.push(`public sealed partial class ${e.name}Service(`, `    ${g.product}DbContext db,`, `    IOptions<${e.module}Options> options,`);
  L.push('    TimeProvider timeProvider,', `    ILogger<${e.name}Service> logger) : I${e.name}Service`, '{');
  L.push(`    private const int MaxPageSize = ${g.pick([50, 100, 200, 500])};`, `    private readonly ${e.name}sOptions _options = options.Value.${e.name}s;`, '');
  L.push(`    public async Task<${e.name}Dto?> Get${e.name}ByIdAsync(Guid id, CancellationToken cancellationToken = default)`, '    {');
  L.push(`        var entity = await db.${e.name}s.AsNoTracking().SingleOrDefaultAsync(x => x.Id == id, cancellationToken);`);
  L.push('        return entity is null ? null : ToDto(entity);', '    }', '');
  L.push(`    public async Task<IReadOnlyList<${e.name}Dto>> List${e.name}sAsync(int page = 1, int pageSize = 50, CancellationToken cancellationToken = default)`, '    {');
  L.push('        ArgumentOutOfRangeException.ThrowIfLessThan(page, 1);', '        pageSize = Math.Clamp(pageSize, 1, MaxPageSize);', '');
  const sortProp = g.pick(e.props)[1];
  L.push(`        var items = await db.${e.name}s`, '            .AsNoTracking()', `            .Where(x => x.Status != ${e.name}Status.${e.states[e.states.length - 1]})`);
  L.push(`            .OrderBy(x => x.${sortProp})`, '            .Skip((page - 1) * pageSize)', '            .Take(pageSize)', '            .ToListAsync(cancellationToken);', '');
  L.push(`        Log${e.name}sListed(page, items.Count);`, '        return items.Select(ToDto).ToList();', '    }', '');
  methods.forEach((m, i) => {
    const verb = e.verbs[i % e.verbs.length];
    L.push(`    /// <summary>${verb}s one ${words(e.name)}. ${g.pick(SENTENCES).replace(/\{e\}/g, words(e.name)).replace(/\{E\}/g, e.name).replace(/\{m\}/g, e.module)}</summary>`);
    L.push(`    public async Task<Result<${e.name}Dto>> ${m}(Guid id, CancellationToken cancellationToken = default)`, '    {');
    L.push(`        var entity = await db.${e.name}s.SingleOrDefaultAsync(x => x.Id == id, cancellationToken);`, '        if (entity is null)', '        {');
    L.push(`            return Error.NotFound(nameof(${e.name}), id);`, '        }', '');
    if (e.props.some(([, n]) => n === 'RetryCount') && g.r() < 0.7) {
      L.push('        if (entity.RetryCount > _options.MaxRetries)', '        {');
      L.push(`            return Error.Validation("${lowerFirst(e.module)}.${kebab(e.name)}.retries_exhausted", "Too many attempts; ${g.pick(REASONS)}.");`, '        }', '');
    }
    L.push(`        var result = entity.${verb}(timeProvider.GetUtcNow());`, '        if (result.IsFailure)', '        {', '            return result.Error;', '        }', '');
    L.push('        await db.SaveChangesAsync(cancellationToken);', `        Log${e.name}Changed(entity.Id, "${verb}", entity.Status);`, '        return ToDto(entity);', '    }', '');
  });
  L.push(`    /// <summary>Processes ${words(e.name)}s in batches of <c>${e.module}:${e.name}s:MaxBatchSize</c> until none are left.</summary>`);
  L.push(`    public async Task<int> Process${e.name}BatchAsync(Func<${e.name}, bool> predicate, CancellationToken cancellationToken = default)`, '    {');
  L.push('        var processed = 0;', '        while (!cancellationToken.IsCancellationRequested)', '        {');
  L.push(`            var batch = await db.${e.name}s`, `                .Where(x => x.Status == ${e.name}Status.${e.states[1]})`, '                .OrderBy(x => x.Id)', '                .Take(_options.MaxBatchSize)', '                .ToListAsync(cancellationToken);');
  L.push('            if (batch.Count == 0)', '            {', '                break;', '            }', '');
  L.push('            foreach (var item in batch.Where(predicate))', '            {', `                item.${e.verbs[0]}(timeProvider.GetUtcNow());`, '                processed++;', '            }', '');
  L.push('            await db.SaveChangesAsync(cancellationToken);', '        }', '', '        return processed;', '    }', '');
  L.push(`    private static string Describe(${e.name}Status status) => status switch`, '    {');
  for (const st of e.states) L.push(`        ${e.name}Status.${st} => "${words(st)}",`);
  L.push('        _ => status.ToString(),', '    };', '');
  const num = e.props.filter(([t]) => t === 'decimal' || t === 'int').map(([, n]) => n);
  L.push(`    /// <summary>Computes the ${words(e.concept)} of a ${words(e.name)} from its lines and the configured limits.</summary>`);
  L.push(`    public decimal ${calcMethod}(${e.name} entity, IReadOnlyCollection<decimal> lines)`, '    {', '        ArgumentNullException.ThrowIfNull(entity);');
  L.push('        var gross = lines.Sum();', `        var factor = 1m - (${num.length ? `entity.${num[0]}` : '0m'} / 100m);`);
  L.push(`        var capped = Math.Min(gross * factor, _options.${e.concept}Limit);`, `        return Math.Round(capped, 2, MidpointRounding.ToEven);`, '    }', '');
  L.push(`    private static ${e.name}Dto ToDto(${e.name} x) => new(`, '        x.Id,');
  for (const [, n] of e.props) L.push(`        x.${n},`);
  L.push('        x.Status);', '');
  L.push(`    [LoggerMessage(EventId = ${g.int(1000, 9999)}, Level = LogLevel.Debug, Message = "Listed page {Page} of ${words(e.name)}s: {Count} items")]`);
  L.push(`    private partial void Log${e.name}sListed(int page, int count);`, '');
  L.push(`    [LoggerMessage(EventId = ${g.int(1000, 9999)}, Level = LogLevel.Information, Message = "${e.name} {Id}: {Action}, now {Status}")]`);
  L.push(`    private partial void Log${e.name}Changed(Guid id, string action, ${e.name}Status status);`, '}');
  return L.join('\n');
}

function commandFile(g: Gen, e: Entity, verb: string): string {
  const L = ['using MediatR;', `using ${g.ns}.Domain.Common;`, `using ${g.ns}.Domain.${e.module};`, '', `namespace ${g.ns}.Application.${e.module}.Commands;`, ''];
  L.push(`/// <summary>${verb}s a ${words(e.name)} on behalf of <paramref name="RequestedBy"/>.</summary>`);
  L.push(`public sealed record ${verb}${e.name}Command(Guid ${e.name}Id, Guid RequestedBy, string? Reason = null) : IRequest<Result<${e.name}Dto>>;`, '');
  L.push(`internal sealed class ${verb}${e.name}CommandHandler(`, `    I${e.name}Service service,`, `    ILogger<${verb}${e.name}CommandHandler> logger) : IRequestHandler<${verb}${e.name}Command, Result<${e.name}Dto>>`, '{');
  L.push(`    public async Task<Result<${e.name}Dto>> Handle(${verb}${e.name}Command request, CancellationToken cancellationToken)`, '    {');
  L.push('        ArgumentNullException.ThrowIfNull(request);', `        using var scope = logger.BeginScope("${e.name} {Id}", request.${e.name}Id);`, '');
  L.push('        if (request.Reason is { Length: > 500 })', '        {', `            return Error.Validation("${lowerFirst(e.module)}.${kebab(e.name)}.reason_too_long", "The reason is limited to 500 characters.");`, '        }', '');
  L.push(`        var result = await service.${verb}${e.name}Async(request.${e.name}Id, cancellationToken);`, '        if (result.IsFailure)', '        {');
  L.push(`            logger.LogWarning("${verb} of ${words(e.name)} {Id} failed: {Error}", request.${e.name}Id, result.Error);`, '        }', '', '        return result;', '    }', '}');
  return L.join('\n');
}

function validatorFile(g: Gen, e: Entity): string {
  const L = ['using FluentValidation;', `using ${g.ns}.Domain.${e.module};`, '', `namespace ${g.ns}.Application.${e.module}.Validation;`, ''];
  L.push(`public sealed class ${e.name}Validator : AbstractValidator<${e.name}Dto>`, '{', `    public ${e.name}Validator()`, '    {');
  for (const [t, n] of e.props) {
    if (t.startsWith('string') && !t.endsWith('?')) L.push(`        RuleFor(x => x.${n}).NotEmpty().MaximumLength(${g.pick([32, 64, 128, 256])});`);
    else if (t === 'decimal') L.push(`        RuleFor(x => x.${n}).GreaterThanOrEqualTo(0m).LessThan(${g.pick([100, 1000, 1_000_000])}m);`);
    else if (t === 'int') L.push(`        RuleFor(x => x.${n}).InclusiveBetween(0, ${g.pick([10, 100, 10_000])});`);
  }
  L.push(`        RuleFor(x => x.Status).IsInEnum().WithMessage("Unknown ${words(e.name)} status.");`, '    }', '}');
  return L.join('\n');
}

function efConfigFile(g: Gen, e: Entity): string {
  const L = ['using Microsoft.EntityFrameworkCore;', 'using Microsoft.EntityFrameworkCore.Metadata.Builders;', `using ${g.ns}.Domain.${e.module};`, ''];
  L.push(`namespace ${g.ns}.Infrastructure.Persistence.Configurations;`, '', `internal sealed class ${e.name}Configuration : IEntityTypeConfiguration<${e.name}>`, '{');
  L.push(`    public void Configure(EntityTypeBuilder<${e.name}> builder)`, '    {', `        builder.ToTable("${e.name}s", "${lowerFirst(e.module)}");`, '        builder.HasKey(x => x.Id);');
  for (const [t, n] of e.props) {
    if (t.startsWith('string')) builder(L, `builder.Property(x => x.${n}).HasMaxLength(${g.pick([32, 64, 200, 400])});`);
    else if (t === 'decimal') builder(L, `builder.Property(x => x.${n}).HasPrecision(18, ${g.pick([2, 4])});`);
  }
  L.push(`        builder.Property(x => x.Status).HasConversion<string>().HasMaxLength(32);`, `        builder.HasIndex(x => new { x.Status, x.${e.props[0][1]} });`, '        builder.Ignore(x => x.DomainEvents);', '    }', '}');
  return L.join('\n');
}

function builder(L: string[], s: string): void {
  L.push(`        ${s}`);
}

function repositoryFile(g: Gen, e: Entity): string {
  const L = ['using Microsoft.EntityFrameworkCore;', `using ${g.ns}.Domain.${e.module};`, '', `namespace ${g.ns}.Infrastructure.Persistence.Repositories;`, ''];
  L.push(`internal sealed class ${e.name}Repository(${g.product}DbContext db) : I${e.name}Repository`, '{');
  L.push(`    public Task<${e.name}?> FindAsync(Guid id, CancellationToken cancellationToken) =>`, `        db.${e.name}s.SingleOrDefaultAsync(x => x.Id == id, cancellationToken);`, '');
  L.push(`    public async Task<IReadOnlyList<${e.name}>> Find${e.states[1]}Async(DateTimeOffset olderThanUtc, int take, CancellationToken cancellationToken) =>`);
  L.push(`        await db.${e.name}s`, `            .Where(x => x.Status == ${e.name}Status.${e.states[1]})`, '            .OrderBy(x => x.Id)', '            .Take(take)', '            .ToListAsync(cancellationToken);', '');
  L.push(`    public void Add(${e.name} entity) => db.${e.name}s.Add(entity);`, '}');
  return L.join('\n');
}

function razorListPage(g: Gen, e: Entity, route: string): string {
  const L = [`@page "${route}"`, `@inject I${e.name}Service ${e.name}Service`, '@inject NavigationManager Navigation', ''];
  L.push(`<PageTitle>${words(e.name)}s - ${g.product}</PageTitle>`, '', `<h1>${e.name}s</h1>`, '');
  L.push('@if (items is null)', '{', `    <p class="loading">Loading ${words(e.name)}s&hellip;</p>`, '}', 'else', '{');
  L.push(`    <table class="table ${kebab(e.name)}-table">`, '        <thead>', '            <tr>');
  for (const [, n] of e.props.slice(0, 5)) L.push(`                <th>${words(n)}</th>`);
  L.push('                <th>Status</th>', '            </tr>', '        </thead>', '        <tbody>', '            @foreach (var item in items)', '            {');
  L.push(`                <tr @key="item.Id" @onclick="() => Open(item.Id)">`);
  for (const [, n] of e.props.slice(0, 5)) L.push(`                    <td>@item.${n}</td>`);
  L.push(`                    <td><span class="badge badge--@item.Status.ToString().ToLowerInvariant()">@item.Status</span></td>`, '                </tr>', '            }', '        </tbody>', '    </table>');
  L.push('}', '', '@code {', `    private IReadOnlyList<${e.name}Dto>? items;`, '');
  L.push('    [SupplyParameterFromQuery(Name = "page")]', '    public int Page { get; set; } = 1;', '');
  L.push('    protected override async Task OnParametersSetAsync()', '    {', `        items = await ${e.name}Service.List${e.name}sAsync(Math.Max(1, Page));`, '    }', '');
  L.push(`    private void Open(Guid id) => Navigation.NavigateTo($"${route}/{id}");`, '}');
  return L.join('\n');
}

function razorEditPage(g: Gen, e: Entity, route: string, codeBehind: boolean, methods: string[]): string {
  const L = [`@page "${route}/{Id:guid}"`];
  if (!codeBehind) L.push(`@inject I${e.name}Service ${e.name}Service`);
  L.push('', `<PageTitle>${e.name} - ${g.product}</PageTitle>`, '');
  L.push('@if (model is null)', '{', `    <p>${e.name} not found.</p>`, '}', 'else', '{');
  L.push(`    <EditForm Model="@model" OnValidSubmit="SaveAsync" FormName="${kebab(e.name)}-edit" class="edit-form">`, '        <DataAnnotationsValidator />');
  for (const [t, n] of e.props.slice(0, 6)) {
    const input = t.startsWith('decimal') || t.startsWith('int') ? 'InputNumber' : t === 'bool' ? 'InputCheckbox' : t.startsWith('string') ? 'InputText' : 'InputText';
    if (input === 'InputText' && !t.startsWith('string')) continue;
    L.push(`        <label>${words(n)} <${input} @bind-Value="model.${n}" /></label>`);
  }
  for (const m of methods.slice(0, 2)) L.push(`        <button type="button" class="btn" @onclick="() => RunAsync(${e.name}Service.${m})">${words(m.replace(/Async$/, ''))}</button>`);
  L.push('        <button type="submit" class="btn btn-primary">Save</button>', '    </EditForm>', '}');
  if (!codeBehind) {
    L.push('', '@code {', '    [Parameter]', '    public Guid Id { get; set; }', '', `    private ${e.name}Dto? model;`, '');
    L.push(`    protected override async Task OnParametersSetAsync() => model = await ${e.name}Service.Get${e.name}ByIdAsync(Id);`, '');
    L.push('    private Task SaveAsync() => Task.CompletedTask;', '');
    L.push(`    private async Task RunAsync(Func<Guid, CancellationToken, Task<Result<${e.name}Dto>>> action)`, '    {', '        var result = await action(Id, default);', '        model = result.IsSuccess ? result.Value : model;', '    }', '}');
  }
  return L.join('\n');
}

function razorCodeBehind(g: Gen, e: Entity): string {
  const L = ['using Microsoft.AspNetCore.Components;', `using ${g.ns}.Application.${e.module};`, `using ${g.ns}.Domain.Common;`, ''];
  L.push(`namespace ${g.ns}.Web.Components.Pages.${e.module};`, '', `public partial class ${e.name}Edit`, '{', '    [Parameter]', '    public Guid Id { get; set; }', '');
  L.push('    [Inject]', `    private I${e.name}Service ${e.name}Service { get; set; } = default!;`, '', '    [Inject]', `    private ILogger<${e.name}Edit> Logger { get; set; } = default!;`, '');
  L.push(`    private ${e.name}Dto? model;`, '', '    protected override async Task OnParametersSetAsync()', '    {', `        model = await ${e.name}Service.Get${e.name}ByIdAsync(Id);`);
  L.push('        if (model is null)', '        {', `            Logger.LogInformation("${e.name} {Id} requested but not found", Id);`, '        }', '    }', '');
  L.push('    private Task SaveAsync() => Task.CompletedTask;', '');
  L.push(`    private async Task RunAsync(Func<Guid, CancellationToken, Task<Result<${e.name}Dto>>> action)`, '    {', '        var result = await action(Id, default);');
  L.push('        if (result.IsFailure)', '        {', '            Logger.LogWarning("Action failed: {Error}", result.Error);', '            return;', '        }', '', '        model = result.Value;', '    }', '}');
  return L.join('\n');
}

function scopedCss(g: Gen, e: Entity): string {
  const k = kebab(e.name);
  const L = [`.${k}-table {`, '  width: 100%;', '  border-collapse: collapse;', '}', '', `.${k}-table tr:hover {`, `  background: var(--surface-alt);`, '  cursor: pointer;', '}', ''];
  for (const s of e.states.slice(0, 4)) L.push(`.badge--${s.toLowerCase()} {`, `  background: ${g.pick(['#1f7a4d', '#b7791f', '#c53030', '#2b5cb8', '#6b7280'])};`, '  color: #fff;', '}', '');
  return L.join('\n');
}

function axamlView(g: Gen, e: Entity, gridName: string): string {
  const L = ['<UserControl xmlns="https://github.com/avaloniaui"', '             xmlns:x="http://schemas.microsoft.com/winfx/2006/xaml"'];
  L.push(`             xmlns:vm="using:${g.ns}.Desktop.ViewModels"`, `             xmlns:dto="using:${g.ns}.Application.${e.module}"`);
  L.push(`             x:Class="${g.ns}.Desktop.Views.${e.name}View"`, `             x:DataType="vm:${e.name}ViewModel"`, '             x:CompileBindings="True">', '', '  <DockPanel Margin="12">');
  L.push('    <StackPanel DockPanel.Dock="Top" Orientation="Horizontal" Spacing="8">', `      <TextBox Width="280" Watermark="Search ${words(e.name)}s" Text="{Binding SearchText}" />`);
  L.push(`      <Button Classes="accent" Content="Refresh" Command="{Binding Refresh${e.name}sCommand}" />`, `      <Button Content="${e.verbs[0]}" Command="{Binding ${e.verbs[0]}Selected${e.name}Command}" />`, '    </StackPanel>', '');
  L.push(`    <TextBlock DockPanel.Dock="Bottom" Classes="muted" Text="{Binding StatusMessage}" />`, '');
  L.push(`    <DataGrid x:Name="${gridName}"`, `              ItemsSource="{Binding ${e.name}s}"`, `              SelectedItem="{Binding Selected${e.name}}"`, '              AutoGenerateColumns="False" IsReadOnly="True">', '      <DataGrid.Columns>');
  for (const [, n] of e.props.slice(0, 6)) L.push(`        <DataGridTextColumn x:DataType="dto:${e.name}Dto" Header="${words(n)}" Binding="{Binding ${n}}" />`);
  L.push('      </DataGrid.Columns>', '    </DataGrid>', '  </DockPanel>', '</UserControl>');
  return L.join('\n');
}

function axamlCodeBehind(g: Gen, e: Entity, gridName: string): string {
  return [
    'using Avalonia.Controls;', '', `namespace ${g.ns}.Desktop.Views;`, '', `public partial class ${e.name}View : UserControl`, '{',
    `    public ${e.name}View()`, '    {', '        InitializeComponent();', `        ${gridName}.DoubleTapped += (_, _) => (DataContext as ViewModels.${e.name}ViewModel)?.OpenSelected();`, '    }', '}',
  ].join('\n');
}

function viewModelFile(g: Gen, e: Entity): string {
  const L = ['using System.Collections.ObjectModel;', 'using CommunityToolkit.Mvvm.ComponentModel;', 'using CommunityToolkit.Mvvm.Input;', `using ${g.ns}.Application.${e.module};`, ''];
  L.push(`namespace ${g.ns}.Desktop.ViewModels;`, '', `public partial class ${e.name}ViewModel(IServiceScopeFactory scopeFactory) : ViewModelBase(scopeFactory)`, '{');
  L.push(`    public ObservableCollection<${e.name}Dto> ${e.name}s { get; } = [];`, '', '    [ObservableProperty]', '    private string? _searchText;', '');
  L.push('    [ObservableProperty]', `    [NotifyCanExecuteChangedFor(nameof(${e.verbs[0]}Selected${e.name}Command))]`, `    private ${e.name}Dto? _selected${e.name};`, '');
  L.push('    [RelayCommand]', `    private Task Refresh${e.name}sAsync(CancellationToken cancellationToken) => RunBusyAsync(async () =>`, '    {');
  L.push(`        var items = await UseServiceAsync<I${e.name}Service, IReadOnlyList<${e.name}Dto>>(s => s.List${e.name}sAsync(1, 200, cancellationToken));`);
  L.push(`        ${e.name}s.Clear();`, '        foreach (var item in items)', '        {', `            ${e.name}s.Add(item);`, '        }', '', `        StatusMessage = $"Loaded {${e.name}s.Count} ${words(e.name)}s.";`, '    });', '');
  L.push(`    [RelayCommand(CanExecute = nameof(HasSelection))]`, `    private Task ${e.verbs[0]}Selected${e.name}Async() => RunBusyAsync(async () =>`, '    {');
  L.push(`        var result = await UseServiceAsync<I${e.name}Service, Result<${e.name}Dto>>(s => s.${e.verbs[0]}${e.name}Async(Selected${e.name}!.Id));`);
  L.push('        StatusMessage = result.IsSuccess ? "Done." : result.Error.Message;', '    });', '');
  L.push(`    private bool HasSelection() => Selected${e.name} is not null;`, '', '    public void OpenSelected()', '    {', `        if (Selected${e.name} is { } item)`, '        {', `            StatusMessage = $"Opened {item.Id}.";`, '        }', '    }', '}');
  return L.join('\n');
}

function testFile(g: Gen, e: Entity, methods: string[], calcMethod: string): string {
  const L = ['using Microsoft.Extensions.Time.Testing;', `using ${g.ns}.Application.${e.module};`, `using ${g.ns}.Domain.${e.module};`, ''];
  L.push(`namespace ${g.ns}.Tests.${e.module};`, '', `public sealed class ${e.name}ServiceTests`, '{', '    private readonly FakeTimeProvider _time = new(new DateTimeOffset(2025, 3, 1, 8, 0, 0, TimeSpan.Zero));', '');
  for (const m of methods.slice(0, 3)) {
    L.push('    [Fact]', `    public async Task ${m.replace(/Async$/, '')}_Unknown${e.name}_ReturnsNotFound()`, '    {', `        var service = TestServices.Create${e.name}Service(_time);`);
    L.push(`        var result = await service.${m}(Guid.NewGuid());`, '        Assert.True(result.IsFailure);', '        Assert.Equal(ErrorKind.NotFound, result.Error.Kind);', '    }', '');
  }
  L.push('    [Theory]', '    [InlineData(0, 0)]', '    [InlineData(100, 100)]', `    public void ${calcMethod}_RespectsLimit(decimal line, decimal expected)`, '    {');
  L.push(`        var service = TestServices.Create${e.name}Service(_time);`, `        var value = service.${calcMethod}(TestData.New${e.name}(), [line]);`, '        Assert.Equal(expected, value);', '    }', '}');
  return L.join('\n');
}

// ---------------------------------------------------------------------------------------------
// Solution-level files

function csproj(g: Gen, kind: string, refs: string[], packages: string[], sdk = 'Microsoft.NET.Sdk'): string {
  const L = [`<Project Sdk="${sdk}">`, '', '  <PropertyGroup>', `    <RootNamespace>${g.ns}.${kind}</RootNamespace>`, '  </PropertyGroup>', ''];
  if (refs.length) {
    L.push('  <ItemGroup>');
    for (const r of refs) L.push(`    <ProjectReference Include="..\\${g.ns}.${r}\\${g.ns}.${r}.csproj" />`);
    L.push('  </ItemGroup>', '');
  }
  if (packages.length) {
    L.push('  <ItemGroup>');
    for (const p of packages) L.push(`    <PackageReference Include="${p}" />`);
    L.push('  </ItemGroup>', '');
  }
  L.push('</Project>');
  return L.join('\n');
}

function appSettings(g: Gen, entities: Entity[]): string {
  const byModule = new Map<string, Entity[]>();
  for (const e of entities) byModule.set(e.module, [...(byModule.get(e.module) ?? []), e]);
  const root: Record<string, unknown> = {
    Logging: { LogLevel: { Default: 'Information', 'Microsoft.AspNetCore': 'Warning' } },
    AllowedHosts: '*',
    ConnectionStrings: { [`${g.product}Db`]: `Server=(localdb)\\MSSQLLocalDB;Database=${g.company}${g.product};Integrated Security=true` },
  };
  for (const [m, es] of byModule) {
    const section: Record<string, unknown> = { Enabled: true };
    for (const e of es) {
      section[`${e.name}s`] = {
        MaxBatchSize: [50, 100, 250, 500][e.name.length % 4],
        RetentionDays: [30, 90, 365][e.name.length % 3],
        MaxRetries: 3 + (e.name.length % 4),
        [`${e.concept}Limit`]: 1000 + e.name.length * 25,
        ProcessingWindow: `00:${String(5 + (e.name.length % 50)).padStart(2, '0')}:00`,
      };
    }
    root[m] = section;
  }
  return JSON.stringify(root, null, 2);
}

function optionsFile(g: Gen, module: string, es: Entity[]): string {
  const L = ['using System.ComponentModel.DataAnnotations;', '', `namespace ${g.ns}.Application.${module};`, ''];
  L.push(`/// <summary>Bound from the <c>${module}</c> configuration section.</summary>`, `public sealed class ${module}Options`, '{', `    public const string SectionName = "${module}";`, '', '    public bool Enabled { get; set; } = true;', '');
  for (const e of es) L.push(`    public ${e.name}sOptions ${e.name}s { get; set; } = new();`, '');
  L.push('}', '');
  for (const e of es) {
    L.push(`public sealed class ${e.name}sOptions`, '{', '    [Range(1, 10_000)]', '    public int MaxBatchSize { get; set; } = 100;', '');
    L.push('    [Range(1, 3650)]', '    public int RetentionDays { get; set; } = 90;', '', '    public int MaxRetries { get; set; } = 3;', '');
    L.push(`    public decimal ${e.concept}Limit { get; set; } = 1000m;`, '', '    public TimeSpan ProcessingWindow { get; set; } = TimeSpan.FromMinutes(15);', '}', '');
  }
  return L.join('\n');
}

function moduleDoc(g: Gen, module: string, es: Entity[]): string {
  const L = [`# ${module}`, '', `The ${module} module of ${g.ns}. ${es.length} aggregates live here.`, ''];
  for (const e of es) {
    L.push(`## ${e.name} lifecycle`, '', g.sentence(e), '', '```', e.states.join(' --> '), '```', '');
    L.push(`Configuration lives under \`${module}:${e.name}s\`: \`MaxBatchSize\`, \`RetentionDays\`, \`MaxRetries\`, \`${e.concept}Limit\`.`, '');
  }
  return L.join('\n');
}

function k8sManifest(g: Gen, module: string): string {
  const name = `${kebab(g.product)}-${kebab(module)}-worker`;
  return [
    'apiVersion: apps/v1', 'kind: Deployment', 'metadata:', `  name: ${name}`, `  labels:`, `    app.kubernetes.io/part-of: ${kebab(g.product)}`, 'spec:', `  replicas: ${g.int(1, 4)}`,
    '  selector:', '    matchLabels:', `      app: ${name}`, '  template:', '    metadata:', '      labels:', `        app: ${name}`, '    spec:', '      containers:',
    `        - name: worker`, `          image: ghcr.io/${g.company.toLowerCase()}/${name}:1.0.0`, '          env:', `            - name: ${module}__Enabled`, '              value: "true"',
    '          resources:', '            requests:', `              cpu: ${g.pick(['100m', '250m', '500m'])}`, `              memory: ${g.pick(['128Mi', '256Mi', '512Mi'])}`,
  ].join('\n');
}

function ciWorkflow(g: Gen): string {
  return [
    'name: ci', '', 'on:', '  push:', '    branches: [main]', '  pull_request:', '', 'jobs:', '  build:', '    runs-on: ubuntu-latest', '    steps:',
    '      - uses: actions/checkout@v4', '      - uses: actions/setup-dotnet@v4', '        with:', '          global-json-file: global.json',
    `      - run: dotnet restore ${g.ns}.slnx`, `      - run: dotnet build ${g.ns}.slnx --no-restore -c Release`, `      - run: dotnet test ${g.ns}.slnx --no-build -c Release`,
  ].join('\n');
}

// ---------------------------------------------------------------------------------------------

export function generateCorpus(root: string, opts: GenOptions): GenResult {
  const target = Math.max(1, Math.floor(opts.files));
  const g = new Gen(opts.seed ?? 1);
  const entities: Entity[] = [];
  const names = new Set<string>();
  const facts: GoldenQuery[] = [];
  const queries: string[] = [];

  // Entities, generated until their files (about 12 each) reach the target.
  const perEntity: Array<Array<[string, string]>> = [];
  let count = 0;
  // Solution-level files added below: 14, plus options, docs and a manifest per module in use.
  const solutionFiles = () => 14 + 3 * Math.min(MODULES.length, entities.length);
  while (count + solutionFiles() < target) {
    let name = '';
    for (let tries = 0; tries < 50 && (!name || names.has(name)); tries++) name = `${g.pick(QUALIFIERS)}${g.pick(NOUNS)}`;
    if (names.has(name)) name = `${name}${entities.length}`;
    names.add(name);
    const e: Entity = {
      name, module: MODULES[entities.length % MODULES.length], noun: name,
      props: g.sample(PROPS, g.int(4, 9)), verbs: g.sample(VERBS, g.int(3, 8)), concept: g.pick(CONCEPTS),
      hasDesktop: g.r() < 0.4, hasCodeBehind: g.r() < 0.5, states: g.sample(STATES, g.int(4, 7)),
    };
    if (!e.props.some(([t]) => t.startsWith('string') && !t.endsWith('?'))) e.props.unshift(['string', 'Reference']);
    entities.push(e);
    const methods = e.verbs.map((v) => `${v}${e.name}Async`);
    const calc = `Calculate${e.name}${e.concept}`;
    const route = `/${kebab(e.module)}/${kebab(e.name)}s`;
    const grid = `${e.name}sGrid`;
    const files: Array<[string, string]> = [];
    const app = g.project('Application');
    files.push([`${g.project('Domain')}/${e.module}/${e.name}.cs`, entityFile(g, e)]);
    files.push([`${app}/${e.module}/I${e.name}Service.cs`, serviceInterface(g, e, methods)]);
    files.push([`${app}/${e.module}/${e.name}Service.cs`, serviceFile(g, e, methods, calc)]);
    files.push([`${app}/${e.module}/Validation/${e.name}Validator.cs`, validatorFile(g, e)]);
    for (const verb of e.verbs.slice(0, 2)) files.push([`${app}/${e.module}/Commands/${verb}${e.name}Command.cs`, commandFile(g, e, verb)]);
    files.push([`${g.project('Infrastructure')}/Persistence/Configurations/${e.name}Configuration.cs`, efConfigFile(g, e)]);
    files.push([`${g.project('Infrastructure')}/Persistence/Repositories/${e.name}Repository.cs`, repositoryFile(g, e)]);
    const pages = `${g.project('Web')}/Components/Pages/${e.module}`;
    files.push([`${pages}/${e.name}List.razor`, razorListPage(g, e, route)]);
    files.push([`${pages}/${e.name}List.razor.css`, scopedCss(g, e)]);
    files.push([`${pages}/${e.name}Edit.razor`, razorEditPage(g, e, route, e.hasCodeBehind, methods)]);
    if (e.hasCodeBehind) files.push([`${pages}/${e.name}Edit.razor.cs`, razorCodeBehind(g, e)]);
    if (e.hasDesktop) {
      const desk = g.project('Desktop');
      files.push([`${desk}/Views/${e.name}View.axaml`, axamlView(g, e, grid)]);
      files.push([`${desk}/Views/${e.name}View.axaml.cs`, axamlCodeBehind(g, e, grid)]);
      files.push([`${desk}/ViewModels/${e.name}ViewModel.cs`, viewModelFile(g, e)]);
    }
    files.push([`tests/${g.ns}.Tests/${e.module}/${e.name}ServiceTests.cs`, testFile(g, e, methods, calc)]);
    perEntity.push(files);
    count += files.length;

    // Facts: the file that defines each planted name.
    const svc = `${app}/${e.module}/${e.name}Service.cs`;
    const iface = `${app}/${e.module}/I${e.name}Service.cs`;
    facts.push({ query: `${e.name}Service`, relevant: [svc], kind: 'identifier' });
    facts.push({ query: calc, relevant: [svc], kind: 'identifier' });
    facts.push({ query: methods[methods.length - 1], relevant: [svc, iface], kind: 'identifier' });
    facts.push({ query: `${e.module}:${e.name}s:RetentionDays`, relevant: [`${g.project('Web')}/appsettings.json`], kind: 'config' });
    facts.push({ query: `@page "${route}"`, relevant: [`${pages}/${e.name}List.razor`], kind: 'razor' });
    if (e.hasDesktop) facts.push({ query: grid, relevant: [`${g.project('Desktop')}/Views/${e.name}View.axaml`, `${g.project('Desktop')}/Views/${e.name}View.axaml.cs`], kind: 'axaml' });
    facts.push({ query: `${words(e.concept)} of a ${words(e.name)}`, relevant: [svc], kind: 'natural-language' });
  }

  // Solution-level files.
  const modules = [...new Set(entities.map((e) => e.module))];
  const solution: Array<[string, string]> = [];
  solution.push([`${g.ns}.slnx`, ['<Solution>', '  <Folder Name="/src/">', ...['Domain', 'Application', 'Infrastructure', 'Web', 'Desktop'].map((k) => `    <Project Path="src/${g.ns}.${k}/${g.ns}.${k}.csproj" />`), '  </Folder>', '  <Folder Name="/tests/">', `    <Project Path="tests/${g.ns}.Tests/${g.ns}.Tests.csproj" />`, '  </Folder>', '</Solution>'].join('\n')]);
  solution.push(['Directory.Build.props', ['<Project>', '  <PropertyGroup>', '    <TargetFramework>net9.0</TargetFramework>', '    <Nullable>enable</Nullable>', '    <ImplicitUsings>enable</ImplicitUsings>', '    <TreatWarningsAsErrors>true</TreatWarningsAsErrors>', '  </PropertyGroup>', '</Project>'].join('\n')]);
  solution.push(['global.json', JSON.stringify({ sdk: { version: '9.0.100', rollForward: 'latestFeature' } }, null, 2)]);
  solution.push(['.gitignore', 'bin/\nobj/\n*.user\nTestResults/\n']);
  solution.push(['README.md', [`# ${g.ns}`, '', `A modular monolith with ${modules.length} modules and ${entities.length} aggregates.`, '', '## Modules', '', ...modules.map((m) => `- [${m}](docs/modules/${kebab(m)}.md)`)].join('\n')]);
  solution.push(['.github/workflows/ci.yml', ciWorkflow(g)]);
  solution.push([`${g.project('Domain')}/${g.ns}.Domain.csproj`, csproj(g, 'Domain', [], [])]);
  solution.push([`${g.project('Application')}/${g.ns}.Application.csproj`, csproj(g, 'Application', ['Domain'], ['FluentValidation', 'Microsoft.EntityFrameworkCore'])]);
  solution.push([`${g.project('Infrastructure')}/${g.ns}.Infrastructure.csproj`, csproj(g, 'Infrastructure', ['Application'], ['Microsoft.EntityFrameworkCore.SqlServer'])]);
  solution.push([`${g.project('Web')}/${g.ns}.Web.csproj`, csproj(g, 'Web', ['Application', 'Infrastructure'], ['OpenTelemetry.Extensions.Hosting'], 'Microsoft.NET.Sdk.Web')]);
  solution.push([`${g.project('Desktop')}/${g.ns}.Desktop.csproj`, csproj(g, 'Desktop', ['Application', 'Infrastructure'], ['Avalonia', 'Avalonia.Controls.DataGrid', 'CommunityToolkit.Mvvm'])]);
  solution.push([`tests/${g.ns}.Tests/${g.ns}.Tests.csproj`, csproj(g, 'Tests', ['Application'], ['xunit', 'Microsoft.Extensions.TimeProvider.Testing'])]);
  solution.push([`${g.project('Web')}/appsettings.json`, appSettings(g, entities)]);
  solution.push([`${g.project('Web')}/appsettings.Development.json`, JSON.stringify({ Logging: { LogLevel: { Default: 'Debug' } } }, null, 2)]);
  for (const m of modules) {
    const es = entities.filter((e) => e.module === m);
    solution.push([`${g.project('Application')}/${m}/${m}Options.cs`, optionsFile(g, m, es)]);
    solution.push([`docs/modules/${kebab(m)}.md`, moduleDoc(g, m, es)]);
    solution.push([`deploy/k8s/${kebab(m)}-worker.yaml`, k8sManifest(g, m)]);
  }

  // Exactly `target` files: solution files first, then entity groups, the last one trimmed.
  const all: Array<[string, string]> = [...solution];
  for (const group of perEntity) all.push(...group);
  const kept = all.slice(0, target);
  const keptPaths = new Set(kept.map(([p]) => p));
  fs.rmSync(root, { recursive: true, force: true });
  let bytes = 0;
  for (const [rel, content] of kept) {
    const abs = path.join(root, rel);
    fs.mkdirSync(path.dirname(abs), { recursive: true });
    const text = content.endsWith('\n') ? content : `${content}\n`;
    fs.writeFileSync(abs, text);
    bytes += Buffer.byteLength(text);
  }

  const golden = facts.filter((f) => f.relevant.every((p) => keptPaths.has(p))).map((f, i) => ({ id: `gen-${i + 1}`, ...f }));
  // Fixed query set: a stratified, deterministic slice of the facts plus multi-word and prefix queries.
  const byKind = new Map<string, GoldenQuery[]>();
  for (const f of golden) byKind.set(f.kind, [...(byKind.get(f.kind) ?? []), f]);
  for (const [, list] of byKind) {
    const step = Math.max(1, Math.floor(list.length / 10));
    for (let i = 0; i < list.length && i / step < 10; i += step) queries.push(list[i].query);
  }
  for (const e of entities.slice(0, 40).filter((_, i) => i % 4 === 0)) {
    queries.push(`${words(e.verbs[0])} ${words(e.name)}`.toLowerCase());
    queries.push(`where is the ${words(e.name)} ${words(e.concept)} calculated`);
    queries.push(`${e.name.slice(0, Math.max(4, e.name.length - 3))}*`);
  }
  return { root, files: kept.length, bytes, golden, queries };
}

async function main(): Promise<void> {
  const { opts } = parseArgs(process.argv.slice(2));
  const out = optString(opts, 'out');
  if (!out) {
    process.stderr.write('usage: node dist/bench/corpus-gen.js --files N --out DIR [--seed S] [--golden FILE.jsonl]\n');
    process.exitCode = 2;
    return;
  }
  const res = generateCorpus(path.resolve(out), { files: optInt(opts, 'files', 1000), seed: optInt(opts, 'seed', 1) });
  const goldenFile = optString(opts, 'golden');
  if (goldenFile) fs.writeFileSync(goldenFile, res.golden.map((q) => JSON.stringify(q)).join('\n') + '\n');
  process.stdout.write(`generated ${res.files} files (${(res.bytes / 1048576).toFixed(1)} MB) in ${res.root}; ${res.golden.length} golden queries${goldenFile ? ` → ${goldenFile}` : ''}\n`);
}

if (isMain(import.meta.url)) await main();
