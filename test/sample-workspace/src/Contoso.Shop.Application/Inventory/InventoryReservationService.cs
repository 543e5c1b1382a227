using Contoso.Shop.Application.Data;
using Contoso.Shop.Domain.Catalog;
using Contoso.Shop.Domain.Common;
using Contoso.Shop.Domain.Ordering;
using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.Logging;

namespace Contoso.Shop.Application.Inventory;

public sealed record ReservationItem(int ProductId, int Quantity);

/// <summary>Stock snapshot shown in the back-office inventory view.</summary>
public sealed record StockLevel(
    int ProductId,
    string Sku,
    string Name,
    string Category,
    int UnitsInStock,
    int UnitsReserved,
    int ReorderLevel)
{
    public int UnitsAvailable => UnitsInStock - UnitsReserved;

    public bool NeedsReorder => UnitsAvailable <= ReorderLevel;
}

/// <summary>
/// Reserves, releases and commits stock for orders. Methods that take part in
/// an order operation only modify tracked entities; the caller owns
/// <see cref="DbContext.SaveChangesAsync(CancellationToken)"/> so the order and
/// its stock change are committed together.
/// </summary>
public sealed class InventoryReservationService(ShopDbContext db, ILogger<InventoryReservationService> logger)
{
    /// <summary>
    /// Reserves every item or none. On success returns the tracked products keyed by id.
    /// </summary>
    public async Task<Result<IReadOnlyDictionary<int, Product>>> ReserveAsync(
        IReadOnlyCollection<ReservationItem> items,
        CancellationToken cancellationToken = default)
    {
        var ids = items.Select(i => i.ProductId).Distinct().ToArray();
        var products = await db.Products
            .Where(p => ids.Contains(p.Id))
            .ToDictionaryAsync(p => p.Id, cancellationToken);

        var reserved = new List<ReservationItem>(items.Count);
        foreach (var item in items)
        {
            if (!products.TryGetValue(item.ProductId, out var product))
            {
                Rollback(products, reserved);
                return Error.NotFound(nameof(Product), item.ProductId);
            }

            var result = product.Reserve(item.Quantity);
            if (result.IsFailure)
            {
                Rollback(products, reserved);
                logger.LogInformation("Reservation failed for {Sku}: {Error}", product.Sku, result.Error);
                return result.Error;
            }

            reserved.Add(item);
        }

        // Explicit Success: C# does not apply user-defined conversions to interface types.
        return Result<IReadOnlyDictionary<int, Product>>.Success(products);
    }

    /// <summary>Returns the stock held by <paramref name="order"/> (cancel or expiry).</summary>
    public async Task ReleaseAsync(Order order, CancellationToken cancellationToken = default)
    {
        var products = await LoadProductsForAsync(order, cancellationToken);
        foreach (var line in order.Lines)
        {
            if (products.TryGetValue(line.ProductId, out var product))
            {
                product.Release(line.Quantity);
            }
        }
    }

    /// <summary>Removes shipped units from stock.</summary>
    public async Task CommitAsync(Order order, CancellationToken cancellationToken = default)
    {
        var products = await LoadProductsForAsync(order, cancellationToken);
        foreach (var line in order.Lines)
        {
            products[line.ProductId].Commit(line.Quantity);
        }
    }

    public async Task<IReadOnlyList<StockLevel>> GetStockLevelsAsync(bool onlyLowStock = false, CancellationToken cancellationToken = default)
    {
        var query = db.Products.AsNoTracking().Where(p => !p.IsDiscontinued);
        if (onlyLowStock)
        {
            query = query.Where(p => p.UnitsInStock - p.UnitsReserved <= p.ReorderLevel);
        }

        return await query
            .OrderBy(p => p.UnitsInStock - p.UnitsReserved)
            .ThenBy(p => p.Sku)
            .Select(p => new StockLevel(p.Id, p.Sku, p.Name, p.Category, p.UnitsInStock, p.UnitsReserved, p.ReorderLevel))
            .ToListAsync(cancellationToken);
    }

    public async Task<Result<StockLevel>> RestockAsync(int productId, int quantity, CancellationToken cancellationToken = default)
    {
        if (quantity <= 0)
        {
            return Error.Validation("inventory.invalid_quantity", "Restock quantity must be positive.");
        }

        var product = await db.Products.FindAsync([productId], cancellationToken);
        if (product is null)
        {
            return Error.NotFound(nameof(Product), productId);
        }

        product.Restock(quantity);
        await db.SaveChangesAsync(cancellationToken);
        logger.LogInformation("Restocked {Sku} with {Quantity} units, now {Available} available", product.Sku, quantity, product.UnitsAvailable);

        return new StockLevel(product.Id, product.Sku, product.Name, product.Category, product.UnitsInStock, product.UnitsReserved, product.ReorderLevel);
    }

    private Task<Dictionary<int, Product>> LoadProductsForAsync(Order order, CancellationToken cancellationToken)
    {
        var ids = order.Lines.Select(l => l.ProductId).ToArray();
        return db.Products.Where(p => ids.Contains(p.Id)).ToDictionaryAsync(p => p.Id, cancellationToken);
    }

    private static void Rollback(Dictionary<int, Product> products, List<ReservationItem> reserved)
    {
        foreach (var item in reserved)
        {
            products[item.ProductId].Release(item.Quantity);
        }
    }
}
