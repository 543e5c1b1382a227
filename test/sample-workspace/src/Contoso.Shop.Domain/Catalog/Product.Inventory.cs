using Contoso.Shop.Domain.Common;

namespace Contoso.Shop.Domain.Catalog;

public sealed partial class Product
{
    public int UnitsInStock { get; private set; }

    public int UnitsReserved { get; private set; }

    public int ReorderLevel { get; private set; }

    public int UnitsAvailable => UnitsInStock - UnitsReserved;

    public bool IsInStock => !IsDiscontinued && UnitsAvailable > 0;

    public bool NeedsReorder => UnitsAvailable <= ReorderLevel;

    /// <summary>
    /// Holds <paramref name="quantity"/> units for a pending order so they are not sold twice.
    /// </summary>
    public Result<int> Reserve(int quantity)
    {
        if (quantity <= 0)
        {
            return Error.Validation("inventory.invalid_quantity", "Quantity must be positive.");
        }

        if (IsDiscontinued)
        {
            return Error.Conflict("inventory.discontinued", $"'{Name}' is no longer sold.");
        }

        if (quantity > UnitsAvailable)
        {
            return Error.Conflict(
                "inventory.insufficient_stock",
                $"Only {UnitsAvailable} of '{Name}' available, {quantity} requested.");
        }

        UnitsReserved += quantity;
        if (NeedsReorder)
        {
            Raise(new ProductStockLow(Id, Sku, UnitsAvailable, DateTimeOffset.UtcNow));
        }

        return UnitsAvailable;
    }

    /// <summary>Returns previously reserved units, e.g. when an order is cancelled or expires.</summary>
    public void Release(int quantity) => UnitsReserved = Math.Max(0, UnitsReserved - quantity);

    /// <summary>Turns a reservation into a shipped quantity.</summary>
    public void Commit(int quantity)
    {
        Release(quantity);
        UnitsInStock = Math.Max(0, UnitsInStock - quantity);
    }

    public void Restock(int quantity)
    {
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(quantity);
        UnitsInStock += quantity;
    }
}

public sealed record ProductStockLow(int ProductId, string Sku, int UnitsAvailable, DateTimeOffset OccurredAtUtc)
    : IDomainEvent;
