using System.ComponentModel.DataAnnotations;
using Contoso.Shop.Domain.Common;
using Contoso.Shop.Domain.ValueObjects;

namespace Contoso.Shop.Domain.Catalog;

/// <summary>
/// A sellable item in the catalog. Stock handling lives in
/// <c>Product.Inventory.cs</c>; this part holds catalog data.
/// </summary>
public sealed partial class Product : AggregateRoot<int>
{
    public const int MaxNameLength = 120;

    private Product()
    {
        // Required by EF Core.
    }

    public Product(int id, string sku, string name, string category, Money price, int unitsInStock, int reorderLevel = 10)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(sku);
        ArgumentException.ThrowIfNullOrWhiteSpace(name);
        ArgumentOutOfRangeException.ThrowIfNegative(unitsInStock);

        Id = id;
        Sku = sku.ToUpperInvariant();
        Name = name;
        Category = category;
        Price = price;
        UnitsInStock = unitsInStock;
        ReorderLevel = reorderLevel;
    }

    [MaxLength(32)]
    public string Sku { get; private set; } = string.Empty;

    [MaxLength(MaxNameLength)]
    public string Name { get; private set; } = string.Empty;

    public string? Description { get; private set; }

    [MaxLength(64)]
    public string Category { get; private set; } = string.Empty;

    public Money Price { get; private set; }

    public string? ImageUrl { get; private set; }

    public bool IsDiscontinued { get; private set; }

    public string Slug => Name.ToLowerInvariant().Replace(' ', '-');

    public void Rename(string name, string? description)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(name);
        if (name.Length > MaxNameLength)
        {
            throw new ArgumentException($"Product names are limited to {MaxNameLength} characters.", nameof(name));
        }

        Name = name;
        Description = description;
    }

    public void ChangePrice(Money newPrice)
    {
        if (newPrice.IsNegative)
        {
            throw new ArgumentOutOfRangeException(nameof(newPrice), "Prices cannot be negative.");
        }

        var oldPrice = Price;
        Price = newPrice;
        Raise(new ProductPriceChanged(Id, oldPrice, newPrice, DateTimeOffset.UtcNow));
    }

    public void SetImage(string? imageUrl) => ImageUrl = imageUrl;

    public void Discontinue() => IsDiscontinued = true;
}

public sealed record ProductPriceChanged(int ProductId, Money OldPrice, Money NewPrice, DateTimeOffset OccurredAtUtc)
    : IDomainEvent;
