using Contoso.Shop.Domain.Common;
using Contoso.Shop.Domain.ValueObjects;

namespace Contoso.Shop.Domain.Ordering;

public sealed record OrderPlaced(Guid OrderId, string OrderNumber, Guid CustomerId, Money Total, DateTimeOffset OccurredAtUtc)
    : IDomainEvent;

public sealed record OrderPaid(Guid OrderId, string PaymentReference, DateTimeOffset OccurredAtUtc)
    : IDomainEvent;

public sealed record OrderShipped(Guid OrderId, string TrackingNumber, DateTimeOffset OccurredAtUtc)
    : IDomainEvent;

public sealed record OrderCancelled(Guid OrderId, string Reason, DateTimeOffset OccurredAtUtc)
    : IDomainEvent;

public sealed record OrderExpired(Guid OrderId, DateTimeOffset OccurredAtUtc)
    : IDomainEvent;

/// <summary>Raised through <see cref="Order.StatusChanged"/> for in-process listeners such as UI view models.</summary>
public sealed class OrderStatusChangedEventArgs(OrderStatus previous, OrderStatus current) : EventArgs
{
    public OrderStatus Previous { get; } = previous;

    public OrderStatus Current { get; } = current;
}
