using Contoso.Shop.Domain.ValueObjects;

namespace Contoso.Shop.Application.Payments;

/// <summary>Abstraction over the card processor. Implementations must be idempotent per <see cref="PaymentRequest.OrderId"/>.</summary>
public interface IPaymentGateway
{
    Task<PaymentResult> AuthorizeAsync(PaymentRequest request, CancellationToken cancellationToken = default);

    Task<PaymentResult> CaptureAsync(string authorizationId, Money amount, CancellationToken cancellationToken = default);

    Task VoidAsync(string authorizationId, CancellationToken cancellationToken = default);
}

public sealed record PaymentRequest(Guid OrderId, string OrderNumber, Money Amount, string PaymentMethod);

public sealed record PaymentResult(bool Succeeded, string? AuthorizationId, string? FailureReason, bool IsTransient = false)
{
    public static PaymentResult Approved(string authorizationId) => new(true, authorizationId, null);

    public static PaymentResult Declined(string reason) => new(false, null, reason);

    public static PaymentResult TransientFailure(string reason) => new(false, null, reason, IsTransient: true);
}
