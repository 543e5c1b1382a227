using Contoso.Shop.Domain.Common;
using Contoso.Shop.Domain.ValueObjects;

namespace Contoso.Shop.Domain.Ordering;

/// <summary>A single product line on an <see cref="Order"/>. Prices are captured at order time.</summary>
public sealed class OrderLine : Entity<int>
{
    private OrderLine()
    {
    }

    internal OrderLine(int productId, string productName, Money unitPrice, int quantity)
    {
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(quantity);

        ProductId = productId;
        ProductName = productName;
        UnitPrice = unitPrice;
        Quantity = quantity;
        Discount = Money.Zero(unitPrice.Currency);
    }

    public int ProductId { get; private set; }

    public string ProductName { get; private set; } = string.Empty;

    public Money UnitPrice { get; private set; }

    public int Quantity { get; private set; }

    public Money Discount { get; private set; }

    public Money GrossTotal => UnitPrice * Quantity;

    public Money LineTotal => GrossTotal - Discount;

    internal void IncreaseQuantity(int by) => Quantity += by;

    internal void ApplyDiscount(Money discount) => Discount = discount.Min(GrossTotal);
}
