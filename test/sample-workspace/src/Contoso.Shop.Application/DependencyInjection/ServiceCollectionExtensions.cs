using Contoso.Shop.Application.Cart;
using Contoso.Shop.Application.Catalog;
using Contoso.Shop.Application.Data;
using Contoso.Shop.Application.Inventory;
using Contoso.Shop.Application.Options;
using Contoso.Shop.Application.Ordering;
using Contoso.Shop.Application.Payments;
using Contoso.Shop.Application.Pricing;
using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;

namespace Contoso.Shop.Application.DependencyInjection;

public static class ServiceCollectionExtensions
{
    /// <summary>
    /// Registers the application layer: options, EF Core contexts, services and
    /// the order expiration worker. Hosts call this once from startup.
    /// </summary>
    public static IServiceCollection AddShopApplication(
        this IServiceCollection services,
        IConfiguration configuration,
        bool runBackgroundWorkers = true)
    {
        services.AddOptions<CheckoutOptions>()
            .Bind(configuration.GetSection(CheckoutOptions.SectionName))
            .ValidateDataAnnotations()
            .ValidateOnStart();

        services.AddOptions<PricingOptions>()
            .Bind(configuration.GetSection(PricingOptions.SectionName))
            .ValidateDataAnnotations()
            .Validate(o => o.BulkDiscountPercent <= o.MaxDiscountPercent, "Shop:Pricing:BulkDiscountPercent cannot exceed MaxDiscountPercent.")
            .ValidateOnStart();

        services.AddOptions<PaymentOptions>()
            .Bind(configuration.GetSection(PaymentOptions.SectionName))
            .ValidateDataAnnotations()
            .ValidateOnStart();

        var orderingDb = configuration.GetConnectionString("OrderingDb")
            ?? throw new InvalidOperationException("Connection string 'OrderingDb' is not configured.");
        var catalogDb = configuration.GetConnectionString("CatalogDb") ?? orderingDb;

        services.AddDbContext<ShopDbContext>(options =>
            options.UseSqlServer(orderingDb, sql => sql.EnableRetryOnFailure(maxRetryCount: 3)));
        services.AddPooledDbContextFactory<CatalogReadDbContext>(options =>
            options.UseSqlServer(catalogDb));

        services.AddMemoryCache(cache => cache.SizeLimit = 1_024);
        services.AddSingleton(TimeProvider.System);

        services.AddScoped<ICatalogService, CatalogService>();
        services.AddScoped<OrderingService>();
        services.AddScoped<InventoryReservationService>();
        services.AddScoped<ShoppingCart>();
        services.AddSingleton<PricingEngine>();

        AddPaymentGateway(services, configuration);

        if (runBackgroundWorkers)
        {
            services.AddHostedService<OrderExpirationWorker>();
        }

        return services;
    }

    private static void AddPaymentGateway(IServiceCollection services, IConfiguration configuration)
    {
        var provider = configuration[$"{PaymentOptions.SectionName}:{nameof(PaymentOptions.Provider)}"] ?? "Simulated";
        switch (provider)
        {
            case "Simulated":
                services.AddSingleton<IPaymentGateway, SimulatedPaymentGateway>();
                break;
            default:
                throw new InvalidOperationException(
                    $"Unknown payment provider '{provider}'. Set Payments:Provider to a supported value (see docs/configuration.md).");
        }
    }
}
