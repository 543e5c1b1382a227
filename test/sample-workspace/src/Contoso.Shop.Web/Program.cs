using System.Text.Json;
using Contoso.Shop.Application.Catalog;
using Contoso.Shop.Application.Data;
using Contoso.Shop.Application.DependencyInjection;
using Contoso.Shop.Domain.Catalog;
using Contoso.Shop.Domain.Customers;
using Contoso.Shop.Domain.ValueObjects;
using Contoso.Shop.Web.Components;
using Microsoft.AspNetCore.Http.HttpResults;
using Microsoft.EntityFrameworkCore;
using OpenTelemetry.Trace;

var builder = WebApplication.CreateBuilder(args);

builder.Services.AddRazorComponents()
    .AddInteractiveServerComponents();
builder.Services.AddControllersWithViews();

builder.Services.AddShopApplication(builder.Configuration);

builder.Services.AddHealthChecks()
    .AddDbContextCheck<ShopDbContext>("ordering-db");

// Traces go to the local Aspire dashboard from docker-compose.yml when the endpoint is set.
if (!string.IsNullOrWhiteSpace(builder.Configuration["OTEL_EXPORTER_OTLP_ENDPOINT"]))
{
    builder.Services.AddOpenTelemetry()
        .WithTracing(tracing => tracing
            .AddAspNetCoreInstrumentation()
            .AddOtlpExporter());
}

var app = builder.Build();

if (app.Environment.IsDevelopment())
{
    await SeedDevelopmentDataAsync(app);
}
else
{
    app.UseExceptionHandler("/error", createScopeForErrors: true);
    app.UseHsts();
}

app.UseHttpsRedirection();
app.UseAntiforgery();

app.MapStaticAssets();
app.MapControllers();
app.MapRazorComponents<App>()
    .AddInteractiveServerRenderMode();

MapCatalogApi(app);
app.MapHealthChecks("/healthz");

app.Run();

// Small read-only JSON API for partners' price comparison feeds and the release smoke tests (tools/release.toml).
static void MapCatalogApi(IEndpointRouteBuilder endpoints)
{
    var api = endpoints.MapGroup("/api/catalog").WithTags("Catalog");

    api.MapGet("/", async (string? category, int? page, ICatalogService catalog, CancellationToken ct) =>
        TypedResults.Ok(await catalog.GetCatalogItemsAsync(category, page ?? 1, cancellationToken: ct)));

    api.MapGet("/{id:int}", async Task<Results<Ok<ProductDetailsDto>, NotFound>> (int id, ICatalogService catalog, CancellationToken ct) =>
        await catalog.GetProductByIdAsync(id, ct) is { } product
            ? TypedResults.Ok(product)
            : TypedResults.NotFound());

    api.MapGet("/categories", async (ICatalogService catalog, CancellationToken ct) =>
        TypedResults.Ok(await catalog.GetCategoriesAsync(ct)));
}

// Creates the LocalDB database on first run and fills it from tools/seed-data.json.
static async Task SeedDevelopmentDataAsync(WebApplication app)
{
    var seedFile = Path.GetFullPath(Path.Combine(app.Environment.ContentRootPath, "..", "..", "tools", "seed-data.json"));
    await using var scope = app.Services.CreateAsyncScope();
    var db = scope.ServiceProvider.GetRequiredService<ShopDbContext>();

    await db.Database.EnsureCreatedAsync();
    if (!File.Exists(seedFile) || await db.Products.AnyAsync())
    {
        return;
    }

    await using var stream = File.OpenRead(seedFile);
    var seed = await JsonSerializer.DeserializeAsync<SeedData>(stream, JsonSerializerOptions.Web)
        ?? throw new InvalidOperationException($"{seedFile} is empty.");

    db.Products.AddRange(seed.Products.Select(p =>
        new Product(p.Id, p.Sku, p.Name, p.Category, Money.Of(p.Price, p.Currency), p.UnitsInStock, p.ReorderLevel)));
    db.Customers.AddRange(seed.Customers.Select(c => new Customer(c.Id, c.Name, c.Email, c.Address)));
    await db.SaveChangesAsync();

    app.Logger.LogInformation("Seeded {ProductCount} products and {CustomerCount} customers from {SeedFile}",
        seed.Products.Count, seed.Customers.Count, seedFile);
}

/// <summary>Exposed for WebApplicationFactory in integration tests.</summary>
public partial class Program;

internal sealed record SeedData(List<SeedProduct> Products, List<SeedCustomer> Customers);

internal sealed record SeedProduct(int Id, string Sku, string Name, string Category, decimal Price, string Currency, int UnitsInStock, int ReorderLevel);

internal sealed record SeedCustomer(Guid Id, string Name, string Email, Address? Address);
