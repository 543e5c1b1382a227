using System.Collections.Concurrent;
using Contoso.Shop.Domain.ValueObjects;
using Microsoft.Extensions.Logging;

namespace Contoso.Shop.Application.Payments;

/// <summary>
/// In-process gateway used when <c>Payments:Provider</c> is <c>Simulated</c>.
/// Payment methods containing "decline" are declined, "flaky" fails transiently once.
/// </summary>
internal sealed class SimulatedPaymentGateway(ILogger<SimulatedPaymentGateway> logger) : IPaymentGateway
{
    private readonly ConcurrentDictionary<Guid, string> _authorizations = new();
    private readonly ConcurrentDictionary<Guid, int> _flakyAttempts = new();

    public Task<PaymentResult> AuthorizeAsync(PaymentRequest request, CancellationToken cancellationToken = default)
    {
        if (request.PaymentMethod.Contains("decline", StringComparison.OrdinalIgnoreCase))
        {
            logger.LogInformation("Simulated decline for order {OrderNumber}", request.OrderNumber);
            return Task.FromResult(PaymentResult.Declined("Card declined by issuer (simulated)."));
        }

        if (request.PaymentMethod.Contains("flaky", StringComparison.OrdinalIgnoreCase)
            && _flakyAttempts.AddOrUpdate(request.OrderId, 1, (_, n) => n + 1) == 1)
        {
            return Task.FromResult(PaymentResult.TransientFailure("Processor timeout (simulated)."));
        }

        var authorizationId = _authorizations.GetOrAdd(request.OrderId, id => $"sim_auth_{id:N}");
        return Task.FromResult(PaymentResult.Approved(authorizationId));
    }

    public Task<PaymentResult> CaptureAsync(string authorizationId, Money amount, CancellationToken cancellationToken = default)
    {
        logger.LogInformation("Captured {Amount} on {AuthorizationId}", amount, authorizationId);
        return Task.FromResult(PaymentResult.Approved(authorizationId));
    }

    public Task VoidAsync(string authorizationId, CancellationToken cancellationToken = default)
    {
        logger.LogInformation("Voided {AuthorizationId}", authorizationId);
        return Task.CompletedTask;
    }
}
