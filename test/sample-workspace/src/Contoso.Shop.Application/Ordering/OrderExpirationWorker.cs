using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;

namespace Contoso.Shop.Application.Ordering;

/// <summary>
/// Periodically expires orders that were not paid within the payment window,
/// returning their reserved stock to the shelf.
/// </summary>
public sealed class OrderExpirationWorker(
    IServiceScopeFactory scopeFactory,
    TimeProvider timeProvider,
    ILogger<OrderExpirationWorker> logger) : BackgroundService
{
    internal static readonly TimeSpan Interval = TimeSpan.FromMinutes(1);

    protected override async Task ExecuteAsync(CancellationToken stoppingToken)
    {
        logger.LogInformation("Order expiration worker started, checking every {Interval}", Interval);
        using var timer = new PeriodicTimer(Interval, timeProvider);

        do
        {
            try
            {
                await using var scope = scopeFactory.CreateAsyncScope();
                var ordering = scope.ServiceProvider.GetRequiredService<OrderingService>();

                int expired;
                do
                {
                    expired = await ordering.ExpireStaleOrdersAsync(stoppingToken);
                }
                while (expired > 0 && !stoppingToken.IsCancellationRequested);
            }
            catch (OperationCanceledException) when (stoppingToken.IsCancellationRequested)
            {
                break;
            }
            catch (Exception ex)
            {
                // Keep the worker alive; the next tick will retry.
                logger.LogError(ex, "Expiring stale orders failed");
            }
        }
        while (await timer.WaitForNextTickAsync(stoppingToken));
    }
}
