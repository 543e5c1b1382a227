using Contoso.Shop.Application.Data;
using Contoso.Shop.Application.Inventory;
using Contoso.Shop.Application.Options;
using Contoso.Shop.Application.Payments;
using Contoso.Shop.Application.Pricing;
using Contoso.Shop.Domain.Common;
using Contoso.Shop.Domain.Customers;
using Contoso.Shop.Domain.Ordering;
using Contoso.Shop.Domain.ValueObjects;
using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;

namespace Contoso.Shop.Application.Ordering;

public sealed record PlaceOrderLine(int ProductId, int Quantity);

public sealed record PlaceOrderRequest(
    Guid CustomerId,
    IReadOnlyList<PlaceOrderLine> Lines,
    Address ShippingAddress,
    string PaymentMethod,
    string? CouponCode = null);

public sealed record OrderConfirmation(
    Guid OrderId,
    string OrderNumber,
    OrderStatus Status,
    Money Total,
    IReadOnlyList<AppliedDiscount> Discounts,
    IReadOnlyList<string> Warnings);

/// <summary>
/// Order use cases: place, cancel, ship and expire. Each public method is one
/// unit of work and calls <c>SaveChangesAsync</c> exactly once.
/// </summary>
public sealed partial class OrderingService(
    ShopDbContext db,
    PricingEngine pricingEngine,
    InventoryReservationService inventory,
    IPaymentGateway paymentGateway,
    IOptions<CheckoutOptions> checkoutOptions,
    IOptions<PaymentOptions> paymentOptions,
    TimeProvider timeProvider,
    ILogger<OrderingService> logger)
{
    private const int ExpiryBatchSize = 100;

    private readonly CheckoutOptions _checkout = checkoutOptions.Value;
    private readonly PaymentOptions _payments = paymentOptions.Value;

    /// <summary>
    /// Validates the basket, reserves stock, prices it and authorizes payment.
    /// If the payment processor is temporarily unavailable the order is still
    /// saved as <see cref="OrderStatus.AwaitingPayment"/> and will expire after
    /// <see cref="CheckoutOptions.PaymentWindow"/> unless paid.
    /// </summary>
    public async Task<Result<OrderConfirmation>> PlaceOrderAsync(PlaceOrderRequest request, CancellationToken cancellationToken = default)
    {
        var validation = Validate(request);
        if (validation is not null)
        {
            return validation;
        }

        var customer = await db.Customers.FindAsync([request.CustomerId], cancellationToken);
        if (customer is null)
        {
            return Error.NotFound(nameof(Customer), request.CustomerId);
        }

        var lines = request.Lines
            .GroupBy(l => l.ProductId)
            .Select(g => new ReservationItem(g.Key, g.Sum(l => l.Quantity)))
            .ToList();

        var reservation = await inventory.ReserveAsync(lines, cancellationToken);
        if (reservation.IsFailure)
        {
            return reservation.Error;
        }

        var now = timeProvider.GetUtcNow();
        var order = Order.Create(NewOrderNumber(now), customer, request.ShippingAddress, _checkout.Currency, now, _checkout.PaymentWindow);
        foreach (var line in lines)
        {
            order.AddLine(reservation.Value[line.ProductId], line.Quantity);
        }

        var quote = pricingEngine.Quote(new PricingContext(
            [.. order.Lines.Select(l => new PricingLine(
                l.ProductId,
                reservation.Value[l.ProductId].Sku,
                reservation.Value[l.ProductId].Category,
                l.UnitPrice,
                l.Quantity))],
            customer.Tier,
            order.Currency,
            request.ShippingAddress.CountryCode,
            request.CouponCode));

        order.ApplyPricing(quote.LineDiscounts, quote.OrderDiscount, quote.Shipping, quote.Tax, quote.AcceptedCouponCode);
        order.MarkPlaced(now);
        db.Orders.Add(order);

        var payment = await AuthorizeWithRetryAsync(
            new PaymentRequest(order.Id, order.Number, order.Total, request.PaymentMethod),
            cancellationToken);

        if (payment.Succeeded)
        {
            order.MarkPaid(payment.AuthorizationId!, now);
            customer.RecordPurchase(order.Total);
        }
        else if (!payment.IsTransient)
        {
            // Hard decline: nothing is saved, so the reservation made above is discarded with the change tracker.
            db.ChangeTracker.Clear();
            LogPaymentDeclined(order.Number, payment.FailureReason);
            return Error.Validation("payment.declined", payment.FailureReason ?? "The payment was declined.");
        }

        try
        {
            await db.SaveChangesAsync(cancellationToken);
        }
        catch (DbUpdateConcurrencyException)
        {
            if (payment.AuthorizationId is { } authorizationId)
            {
                await paymentGateway.VoidAsync(authorizationId, cancellationToken);
            }

            return Error.Conflict("order.stock_changed", "Stock changed while placing the order. Please review your basket.");
        }

        LogOrderPlaced(order.Number, customer.Id, order.Total.Amount, order.Status);
        return new OrderConfirmation(order.Id, order.Number, order.Status, order.Total, quote.Discounts, quote.Warnings);
    }

    /// <summary>Cancels an unshipped order, releases its stock and voids any authorization.</summary>
    public async Task<Result<Order>> CancelOrderAsync(Guid orderId, string reason, CancellationToken cancellationToken = default)
    {
        var order = await db.Orders.Include(o => o.Customer).SingleOrDefaultAsync(o => o.Id == orderId, cancellationToken);
        if (order is null)
        {
            return Error.NotFound(nameof(Order), orderId);
        }

        var cancelled = order.Cancel(reason, timeProvider.GetUtcNow());
        if (cancelled.IsFailure)
        {
            return cancelled;
        }

        await inventory.ReleaseAsync(order, cancellationToken);
        if (order.PaymentReference is { } authorizationId)
        {
            await paymentGateway.VoidAsync(authorizationId, cancellationToken);
        }

        await db.SaveChangesAsync(cancellationToken);
        LogOrderCancelled(order.Number, reason);
        return order;
    }

    /// <summary>Marks a paid order as shipped, removes the stock and captures the payment.</summary>
    public async Task<Result<Order>> ShipOrderAsync(Guid orderId, string trackingNumber, CancellationToken cancellationToken = default)
    {
        var order = await db.Orders.Include(o => o.Customer).SingleOrDefaultAsync(o => o.Id == orderId, cancellationToken);
        if (order is null)
        {
            return Error.NotFound(nameof(Order), orderId);
        }

        if (order.Status != OrderStatus.Paid)
        {
            return Error.Conflict("order.not_paid", $"Order {order.Number} is {order.Status}; only paid orders can ship.");
        }

        var capture = await paymentGateway.CaptureAsync(order.PaymentReference!, order.Total, cancellationToken);
        if (!capture.Succeeded)
        {
            return Error.Unavailable("payment.capture_failed", capture.FailureReason ?? "Capture failed.");
        }

        order.Ship(trackingNumber, timeProvider.GetUtcNow());
        await inventory.CommitAsync(order, cancellationToken);
        await db.SaveChangesAsync(cancellationToken);
        return order;
    }

    /// <summary>Expires unpaid orders past their payment window. Returns how many were expired.</summary>
    public async Task<int> ExpireStaleOrdersAsync(CancellationToken cancellationToken = default)
    {
        var now = timeProvider.GetUtcNow();
        var stale = await db.Orders
            .Where(o => o.Status == OrderStatus.AwaitingPayment && o.ExpiresAtUtc <= now)
            .OrderBy(o => o.ExpiresAtUtc)
            .Take(ExpiryBatchSize)
            .ToListAsync(cancellationToken);

        foreach (var order in stale)
        {
            if (order.TryExpire(now))
            {
                await inventory.ReleaseAsync(order, cancellationToken);
            }
        }

        if (stale.Count > 0)
        {
            await db.SaveChangesAsync(cancellationToken);
            LogOrdersExpired(stale.Count);
        }

        return stale.Count;
    }

    /// <summary>
    /// Finds the customer by e-mail or registers a new one. Guest checkout uses this;
    /// returning customers keep their loyalty tier.
    /// </summary>
    public async Task<Customer> GetOrCreateCustomerAsync(string name, string email, Address? address, CancellationToken cancellationToken = default)
    {
        var normalized = email.Trim().ToLowerInvariant();
        var customer = await db.Customers.SingleOrDefaultAsync(c => c.Email == normalized, cancellationToken);
        if (customer is not null)
        {
            return customer;
        }

        customer = new Customer(Guid.NewGuid(), name, normalized, address);
        db.Customers.Add(customer);
        await db.SaveChangesAsync(cancellationToken);
        return customer;
    }

    /// <summary>Orders for the back-office grid, newest first, with customer loaded.</summary>
    public async Task<IReadOnlyList<Order>> GetRecentOrdersAsync(
        OrderStatus? status = null,
        string? search = null,
        int take = 200,
        CancellationToken cancellationToken = default)
    {
        var query = db.Orders.AsNoTracking().Include(o => o.Customer).AsQueryable();
        if (status is { } s)
        {
            query = query.Where(o => o.Status == s);
        }

        if (!string.IsNullOrWhiteSpace(search))
        {
            var term = search.Trim();
            query = query.Where(o => o.Number.Contains(term) || o.Customer!.Name.Contains(term) || o.Customer!.Email.Contains(term));
        }

        return await query.OrderByDescending(o => o.PlacedAtUtc).Take(take).ToListAsync(cancellationToken);
    }

    private Error? Validate(PlaceOrderRequest request)
    {
        if (request.Lines.Count == 0)
        {
            return Error.Validation("order.empty", "An order needs at least one line.");
        }

        if (request.Lines.Any(l => l.Quantity <= 0))
        {
            return Error.Validation("order.invalid_quantity", "Quantities must be positive.");
        }

        var totalItems = request.Lines.Sum(l => l.Quantity);
        if (totalItems > _checkout.MaxItemsPerOrder)
        {
            return Error.Validation(
                "order.too_many_items",
                $"An order can contain at most {_checkout.MaxItemsPerOrder} items; this one has {totalItems}.");
        }

        return string.IsNullOrWhiteSpace(request.PaymentMethod)
            ? Error.Validation("order.payment_method_required", "Choose a payment method.")
            : null;
    }

    private async Task<PaymentResult> AuthorizeWithRetryAsync(PaymentRequest request, CancellationToken cancellationToken)
    {
        var policy = _payments.RetryPolicy;
        var delay = TimeSpan.FromMilliseconds(policy.BackoffMilliseconds);

        for (var attempt = 1; ; attempt++)
        {
            var result = await paymentGateway.AuthorizeAsync(request, cancellationToken);
            if (result.Succeeded || !result.IsTransient || attempt >= policy.MaxAttempts)
            {
                return result;
            }

            LogPaymentRetry(request.OrderNumber, attempt, policy.MaxAttempts, result.FailureReason);
            await Task.Delay(delay, timeProvider, cancellationToken);
            delay *= 2;
        }
    }

    private static string NewOrderNumber(DateTimeOffset now) =>
        $"SO-{now:yyyyMMdd}-{Random.Shared.Next(0, 1_000_000):D6}";

    [LoggerMessage(EventId = 1001, Level = LogLevel.Information, Message = "Order {OrderNumber} placed for customer {CustomerId}, total {Total}, status {Status}")]
    private partial void LogOrderPlaced(string orderNumber, Guid customerId, decimal total, OrderStatus status);

    [LoggerMessage(EventId = 1002, Level = LogLevel.Information, Message = "Order {OrderNumber} cancelled: {Reason}")]
    private partial void LogOrderCancelled(string orderNumber, string reason);

    [LoggerMessage(EventId = 1003, Level = LogLevel.Information, Message = "Expired {Count} unpaid orders")]
    private partial void LogOrdersExpired(int count);

    [LoggerMessage(EventId = 1004, Level = LogLevel.Warning, Message = "Payment declined for order {OrderNumber}: {Reason}")]
    private partial void LogPaymentDeclined(string orderNumber, string? reason);

    [LoggerMessage(EventId = 1005, Level = LogLevel.Warning, Message = "Payment attempt {Attempt}/{MaxAttempts} for {OrderNumber} failed transiently: {Reason}")]
    private partial void LogPaymentRetry(string orderNumber, int attempt, int maxAttempts, string? reason);
}
