using Contoso.Shop.Application.Data;
using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.Caching.Memory;
using Microsoft.Extensions.Logging;

namespace Contoso.Shop.Application.Catalog;

/// <summary>
/// Catalog queries against the read-only catalog database. Category lists are
/// cached because they change a few times a year.
/// </summary>
public sealed class CatalogService(
    IDbContextFactory<CatalogReadDbContext> dbContextFactory,
    IMemoryCache cache,
    ILogger<CatalogService> logger) : ICatalogService
{
    internal const string CategoriesCacheKey = "catalog:categories";
    private const int MaxPageSize = 100;

    private static readonly MemoryCacheEntryOptions CategoriesCacheEntry = new()
    {
        AbsoluteExpirationRelativeToNow = TimeSpan.FromMinutes(15),
        Size = 1,
    };

    public async Task<IReadOnlyList<CatalogItemDto>> GetCatalogItemsAsync(
        string? category = null,
        int page = 1,
        int pageSize = 24,
        CancellationToken cancellationToken = default)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(page, 1);
        pageSize = Math.Clamp(pageSize, 1, MaxPageSize);

        await using var db = await dbContextFactory.CreateDbContextAsync(cancellationToken);

        var query = db.Products.Where(p => !p.IsDiscontinued);
        if (!string.IsNullOrWhiteSpace(category))
        {
            query = query.Where(p => p.Category == category);
        }

        var items = await query
            .OrderBy(p => p.Category)
            .ThenBy(p => p.Name)
            .Skip((page - 1) * pageSize)
            .Take(pageSize)
            .Select(p => new CatalogItemDto(
                p.Id,
                p.Sku,
                p.Name,
                p.Category,
                p.Price,
                p.UnitsInStock - p.UnitsReserved > 0,
                p.ImageUrl))
            .ToListAsync(cancellationToken);

        logger.LogDebug("Catalog page {Page} for category {Category} returned {Count} items", page, category ?? "(all)", items.Count);
        return items;
    }

    public async Task<ProductDetailsDto?> GetProductByIdAsync(int productId, CancellationToken cancellationToken = default)
    {
        await using var db = await dbContextFactory.CreateDbContextAsync(cancellationToken);

        return await db.Products
            .Where(p => p.Id == productId && !p.IsDiscontinued)
            .Select(p => new ProductDetailsDto(
                p.Id,
                p.Sku,
                p.Name,
                p.Description,
                p.Category,
                p.Price,
                p.UnitsInStock - p.UnitsReserved,
                p.ImageUrl))
            .SingleOrDefaultAsync(cancellationToken);
    }

    public async Task<IReadOnlyList<string>> GetCategoriesAsync(CancellationToken cancellationToken = default)
    {
        if (cache.TryGetValue(CategoriesCacheKey, out IReadOnlyList<string>? cached) && cached is not null)
        {
            return cached;
        }

        await using var db = await dbContextFactory.CreateDbContextAsync(cancellationToken);
        var categories = await db.Products
            .Where(p => !p.IsDiscontinued)
            .Select(p => p.Category)
            .Distinct()
            .OrderBy(c => c)
            .ToListAsync(cancellationToken);

        cache.Set(CategoriesCacheKey, (IReadOnlyList<string>)categories, CategoriesCacheEntry);
        return categories;
    }
}
