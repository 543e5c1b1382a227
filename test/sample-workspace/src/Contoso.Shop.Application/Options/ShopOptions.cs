using System.ComponentModel.DataAnnotations;

namespace Contoso.Shop.Application.Options;

/// <summary>Bound from <c>Shop:Checkout</c>.</summary>
public sealed class CheckoutOptions
{
    public const string SectionName = "Shop:Checkout";

    /// <summary>Upper bound on the total quantity of items in a single order.</summary>
    [Range(1, 500)]
    public int MaxItemsPerOrder { get; set; } = 50;

    [Required, RegularExpression("^[A-Z]{3}$")]
    public string Currency { get; set; } = "USD";

    /// <summary>How long an unpaid order keeps its stock reservation.</summary>
    public TimeSpan PaymentWindow { get; set; } = TimeSpan.FromMinutes(30);
}

/// <summary>Bound from <c>Shop:Pricing</c>. Percentages are 0-100.</summary>
public sealed class PricingOptions
{
    public const string SectionName = "Shop:Pricing";

    [Range(2, 1000)]
    public int BulkDiscountThreshold { get; set; } = 10;

    [Range(0, 50)]
    public decimal BulkDiscountPercent { get; set; } = 5m;

    /// <summary>Extra discount per loyalty tier, keyed by tier name (Silver, Gold).</summary>
    public Dictionary<string, decimal> LoyaltyDiscountPercent { get; set; } = new(StringComparer.OrdinalIgnoreCase);

    [Range(0, 90)]
    public decimal MaxDiscountPercent { get; set; } = 40m;

    /// <summary>ISO country code; orders shipped elsewhere pay the international fee and no sales tax.</summary>
    [Required, StringLength(2, MinimumLength = 2)]
    public string HomeCountry { get; set; } = "US";

    public decimal FreeShippingThreshold { get; set; } = 75m;

    public decimal FlatShippingFee { get; set; } = 6.95m;

    public decimal InternationalShippingFee { get; set; } = 19.95m;

    [Range(0, 30)]
    public decimal TaxRatePercent { get; set; } = 8.25m;

    /// <summary>Categories where every third item is free ("3 for 2").</summary>
    public List<string> ThreeForTwoCategories { get; set; } = [];
}

/// <summary>Bound from <c>Payments</c>.</summary>
public sealed class PaymentOptions
{
    public const string SectionName = "Payments";

    /// <summary><c>Simulated</c> for local development; other providers are configured per environment.</summary>
    [Required]
    public string Provider { get; set; } = "Simulated";

    [Required]
    public RetryPolicyOptions RetryPolicy { get; set; } = new();
}

public sealed class RetryPolicyOptions
{
    [Range(1, 10)]
    public int MaxAttempts { get; set; } = 3;

    [Range(0, 60_000)]
    public int BackoffMilliseconds { get; set; } = 250;
}
