using Contoso.Shop.Application.Catalog;
using Contoso.Shop.Application.Ordering;
using Contoso.Shop.Application.Options;
using Contoso.Shop.Application.Pricing;
using Contoso.Shop.Domain.Common;
using Contoso.Shop.Domain.ValueObjects;
using Microsoft.Extensions.Options;

namespace Contoso.Shop.Application.Cart;

public sealed record CartItem(int ProductId, string Sku, string Name, string Category, Money UnitPrice, int Quantity)
{
    public Money LineTotal => UnitPrice * Quantity;
}

/// <summary>
/// The visitor's basket. Registered as a scoped service, which in Blazor Server
/// means one cart per circuit (browser tab). <see cref="Changed"/> lets the
/// header badge and the checkout page re-render when items change.
/// </summary>
public sealed class ShoppingCart(IOptions<CheckoutOptions> options)
{
    private readonly Dictionary<int, CartItem> _items = [];
    private readonly CheckoutOptions _options = options.Value;

    public event Action? Changed;

    public IReadOnlyCollection<CartItem> Items => _items.Values;

    public int TotalQuantity => _items.Values.Sum(i => i.Quantity);

    public bool IsEmpty => _items.Count == 0;

    public string Currency => _options.Currency;

    public string? CouponCode { get; private set; }

    public Money Subtotal => _items.Values.Aggregate(Money.Zero(Currency), (sum, i) => sum + i.LineTotal);

    public int RemainingCapacity => _options.MaxItemsPerOrder - TotalQuantity;

    public Result<CartItem> Add(CatalogItemDto product, int quantity = 1)
    {
        ArgumentNullException.ThrowIfNull(product);

        if (!product.InStock)
        {
            return Error.Conflict("cart.out_of_stock", $"{product.Name} is out of stock.");
        }

        if (quantity > RemainingCapacity)
        {
            return Error.Validation(
                "cart.too_many_items",
                $"An order can contain at most {_options.MaxItemsPerOrder} items.");
        }

        var item = _items.TryGetValue(product.Id, out var existing)
            ? existing with { Quantity = existing.Quantity + quantity }
            : new CartItem(product.Id, product.Sku, product.Name, product.Category, product.Price, quantity);

        _items[product.Id] = item;
        Changed?.Invoke();
        return item;
    }

    public void SetQuantity(int productId, int quantity)
    {
        if (!_items.TryGetValue(productId, out var item))
        {
            return;
        }

        if (quantity <= 0)
        {
            Remove(productId);
            return;
        }

        var maxForLine = item.Quantity + RemainingCapacity;
        _items[productId] = item with { Quantity = Math.Min(quantity, maxForLine) };
        Changed?.Invoke();
    }

    public bool Remove(int productId)
    {
        var removed = _items.Remove(productId);
        if (removed)
        {
            Changed?.Invoke();
        }

        return removed;
    }

    public void ApplyCoupon(string? couponCode)
    {
        CouponCode = string.IsNullOrWhiteSpace(couponCode) ? null : couponCode.Trim().ToUpperInvariant();
        Changed?.Invoke();
    }

    public void Clear()
    {
        _items.Clear();
        CouponCode = null;
        Changed?.Invoke();
    }

    public IReadOnlyList<PlaceOrderLine> ToOrderLines() =>
        _items.Values.Select(i => new PlaceOrderLine(i.ProductId, i.Quantity)).ToList();

    public IReadOnlyList<PricingLine> ToPricingLines() =>
        _items.Values.Select(i => new PricingLine(i.ProductId, i.Sku, i.Category, i.UnitPrice, i.Quantity)).ToList();
}
