using Contoso.Shop.Domain.ValueObjects;

namespace Contoso.Shop.Application.Catalog;

/// <summary>Read-side access to the product catalog used by the storefront.</summary>
public interface ICatalogService
{
    /// <summary>Lists products that can currently be sold, optionally filtered by category.</summary>
    Task<IReadOnlyList<CatalogItemDto>> GetCatalogItemsAsync(
        string? category = null,
        int page = 1,
        int pageSize = 24,
        CancellationToken cancellationToken = default);

    Task<ProductDetailsDto?> GetProductByIdAsync(int productId, CancellationToken cancellationToken = default);

    Task<IReadOnlyList<string>> GetCategoriesAsync(CancellationToken cancellationToken = default);
}

public sealed record CatalogItemDto(
    int Id,
    string Sku,
    string Name,
    string Category,
    Money Price,
    bool InStock,
    string? ImageUrl);

public sealed record ProductDetailsDto(
    int Id,
    string Sku,
    string Name,
    string? Description,
    string Category,
    Money Price,
    int UnitsAvailable,
    string? ImageUrl)
{
    public bool InStock => UnitsAvailable > 0;

    public bool IsLowStock => UnitsAvailable is > 0 and <= 5;

    public CatalogItemDto ToCatalogItem() => new(Id, Sku, Name, Category, Price, InStock, ImageUrl);
}
