using Contoso.Shop.Domain.Catalog;
using Contoso.Shop.Domain.Common;
using Contoso.Shop.Domain.Customers;
using Contoso.Shop.Domain.ValueObjects;

namespace Contoso.Shop.Domain.Ordering;

/// <summary>
/// A customer order. Created in <see cref="OrderStatus.AwaitingPayment"/> and
/// moved through its lifecycle by the ordering service and the back-office app.
/// </summary>
public sealed class Order : AggregateRoot<Guid>
{
    private readonly List<OrderLine> _lines = [];

    private Order()
    {
    }

    private Order(Guid id, string number, Guid customerId, Address shippingAddress, string currency, DateTimeOffset placedAtUtc, TimeSpan paymentWindow)
    {
        Id = id;
        Number = number;
        CustomerId = customerId;
        ShippingAddress = shippingAddress;
        Currency = currency;
        PlacedAtUtc = placedAtUtc;
        ExpiresAtUtc = placedAtUtc + paymentWindow;
        Status = OrderStatus.AwaitingPayment;
        DiscountTotal = Money.Zero(currency);
        ShippingFee = Money.Zero(currency);
        Tax = Money.Zero(currency);
    }

    /// <summary>Raised whenever <see cref="Status"/> changes. Not persisted.</summary>
    public event EventHandler<OrderStatusChangedEventArgs>? StatusChanged;

    public string Number { get; private set; } = string.Empty;

    public Guid CustomerId { get; private set; }

    public Customer? Customer { get; private set; }

    public Address ShippingAddress { get; private set; } = null!;

    public string Currency { get; private set; } = Money.DefaultCurrency;

    public OrderStatus Status { get; private set; }

    public DateTimeOffset PlacedAtUtc { get; private set; }

    public DateTimeOffset ExpiresAtUtc { get; private set; }

    public string? PaymentReference { get; private set; }

    public string? TrackingNumber { get; private set; }

    public string? CancellationReason { get; private set; }

    public string? CouponCode { get; private set; }

    public Money DiscountTotal { get; private set; }

    public Money ShippingFee { get; private set; }

    public Money Tax { get; private set; }

    public IReadOnlyList<OrderLine> Lines => _lines;

    public int ItemCount => _lines.Sum(l => l.Quantity);

    public Money Subtotal => _lines.Aggregate(Money.Zero(Currency), (sum, line) => sum + line.GrossTotal);

    public Money Total => Subtotal - DiscountTotal + ShippingFee + Tax;

    /// <summary>Gets the line for <paramref name="productId"/>, or <c>null</c> if the product is not on this order.</summary>
    public OrderLine? this[int productId] => _lines.FirstOrDefault(l => l.ProductId == productId);

    public static Order Create(string number, Customer customer, Address shippingAddress, string currency, DateTimeOffset nowUtc, TimeSpan paymentWindow)
    {
        ArgumentNullException.ThrowIfNull(customer);
        var order = new Order(Guid.NewGuid(), number, customer.Id, shippingAddress, currency, nowUtc, paymentWindow)
        {
            Customer = customer,
        };
        return order;
    }

    public void AddLine(Product product, int quantity)
    {
        EnsureStatus(OrderStatus.AwaitingPayment, "add lines to");
        if (product.Price.Currency != Currency)
        {
            throw new InvalidOperationException($"Product {product.Sku} is priced in {product.Price.Currency}, order is in {Currency}.");
        }

        if (this[product.Id] is { } existing)
        {
            existing.IncreaseQuantity(quantity);
            return;
        }

        _lines.Add(new OrderLine(product.Id, product.Name, product.Price, quantity));
    }

    /// <summary>Applies the result of a pricing run. Line discounts must reference lines on this order.</summary>
    public void ApplyPricing(IReadOnlyDictionary<int, Money> lineDiscounts, Money orderDiscount, Money shippingFee, Money tax, string? couponCode)
    {
        foreach (var (productId, discount) in lineDiscounts)
        {
            var line = this[productId] ?? throw new InvalidOperationException($"No line for product {productId}.");
            line.ApplyDiscount(discount);
        }

        DiscountTotal = _lines.Aggregate(orderDiscount, (sum, line) => sum + line.Discount);
        ShippingFee = shippingFee;
        Tax = tax;
        CouponCode = couponCode;
    }

    public void MarkPlaced(DateTimeOffset nowUtc) =>
        Raise(new OrderPlaced(Id, Number, CustomerId, Total, nowUtc));

    public void MarkPaid(string paymentReference, DateTimeOffset nowUtc)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(paymentReference);
        TransitionTo(OrderStatus.Paid);
        PaymentReference = paymentReference;
        Raise(new OrderPaid(Id, paymentReference, nowUtc));
    }

    public void Ship(string trackingNumber, DateTimeOffset nowUtc)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(trackingNumber);
        TransitionTo(OrderStatus.Shipped);
        TrackingNumber = trackingNumber;
        Raise(new OrderShipped(Id, trackingNumber, nowUtc));
    }

    public void MarkDelivered() => TransitionTo(OrderStatus.Delivered);

    public Result<Order> Cancel(string reason, DateTimeOffset nowUtc)
    {
        if (!Transitions.IsAllowed(Status, OrderStatus.Cancelled))
        {
            return Error.Conflict("order.cannot_cancel", $"Order {Number} is {Status} and can no longer be cancelled.");
        }

        TransitionTo(OrderStatus.Cancelled);
        CancellationReason = reason;
        Raise(new OrderCancelled(Id, reason, nowUtc));
        return this;
    }

    public bool IsExpired(DateTimeOffset nowUtc) =>
        Status == OrderStatus.AwaitingPayment && nowUtc >= ExpiresAtUtc;

    public bool TryExpire(DateTimeOffset nowUtc)
    {
        if (!IsExpired(nowUtc))
        {
            return false;
        }

        TransitionTo(OrderStatus.Expired);
        Raise(new OrderExpired(Id, nowUtc));
        return true;
    }

    private void TransitionTo(OrderStatus next)
    {
        if (!Transitions.IsAllowed(Status, next))
        {
            throw new InvalidOperationException($"Order {Number} cannot move from {Status} to {next}.");
        }

        var previous = Status;
        Status = next;
        StatusChanged?.Invoke(this, new OrderStatusChangedEventArgs(previous, next));
    }

    private void EnsureStatus(OrderStatus expected, string action)
    {
        if (Status != expected)
        {
            throw new InvalidOperationException($"Cannot {action} order {Number} while it is {Status}.");
        }
    }

    /// <summary>The allowed status transitions, kept next to the aggregate that enforces them.</summary>
    private static class Transitions
    {
        private static readonly Dictionary<OrderStatus, OrderStatus[]> Allowed = new()
        {
            [OrderStatus.AwaitingPayment] = [OrderStatus.Paid, OrderStatus.Cancelled, OrderStatus.Expired],
            [OrderStatus.Paid] = [OrderStatus.Shipped, OrderStatus.Cancelled],
            [OrderStatus.Shipped] = [OrderStatus.Delivered],
        };

        public static bool IsAllowed(OrderStatus from, OrderStatus to) =>
            Allowed.TryGetValue(from, out var targets) && Array.IndexOf(targets, to) >= 0;
    }
}
