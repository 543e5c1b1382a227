using System.Collections.Frozen;
using Contoso.Shop.Application.Options;
using Contoso.Shop.Domain.Common;
using Contoso.Shop.Domain.Customers;
using Contoso.Shop.Domain.ValueObjects;
using Microsoft.Extensions.Options;

namespace Contoso.Shop.Application.Pricing;

/// <summary>One product line as seen by the pricing engine.</summary>
public sealed record PricingLine(int ProductId, string Sku, string Category, Money UnitPrice, int Quantity)
{
    public Money GrossTotal => UnitPrice * Quantity;
}

/// <summary>Everything the engine needs to price a basket.</summary>
public sealed record PricingContext(
    IReadOnlyList<PricingLine> Lines,
    CustomerTier Tier,
    string Currency,
    string ShippingCountry,
    string? CouponCode = null);

/// <summary>A discount that ended up on the quote, for display on the receipt.</summary>
public sealed record AppliedDiscount(string RuleName, string Description, Money Amount, int? ProductId = null);

public enum CouponKind
{
    PercentOff,
    AmountOff,
    FreeShipping,
}

/// <summary>A promotional code. <see cref="Category"/> restricts percent coupons to one category.</summary>
public sealed record Coupon(
    string Code,
    CouponKind Kind,
    decimal Value,
    DateOnly ValidFrom,
    DateOnly ValidUntil,
    decimal MinimumSubtotal = 0m,
    string? Category = null)
{
    public bool IsValidOn(DateOnly day) => day >= ValidFrom && day <= ValidUntil;
}

/// <summary>The priced basket. Amounts are rounded to cents; <see cref="Total"/> is what we charge.</summary>
public sealed record PriceQuote(
    Money Subtotal,
    IReadOnlyDictionary<int, Money> LineDiscounts,
    Money OrderDiscount,
    IReadOnlyList<AppliedDiscount> Discounts,
    Money Shipping,
    Money Tax,
    IReadOnlyList<string> Warnings,
    string? AcceptedCouponCode)
{
    public Money DiscountTotal => LineDiscounts.Values.Aggregate(OrderDiscount, (sum, d) => sum + d);

    public Money Total => Subtotal - DiscountTotal + Shipping + Tax;

    public bool HasFreeShipping => Shipping.IsZero;
}

/// <summary>
/// Computes discounts, shipping and tax for a basket.
/// </summary>
/// <remarks>
/// Rules run in a fixed order:
/// <list type="number">
///   <item>3-for-2 on configured categories (line level)</item>
///   <item>Bulk quantity discount on lines that did not get 3-for-2 (line level)</item>
///   <item>Loyalty tier discount (order level)</item>
///   <item>Coupon (order level or free shipping)</item>
/// </list>
/// The combined discount is then capped at <see cref="PricingOptions.MaxDiscountPercent"/>
/// of the subtotal. Shipping is free above <see cref="PricingOptions.FreeShippingThreshold"/>.
/// Tax is charged on discounted goods plus shipping, and not at all on exports.
/// </remarks>
public sealed class PricingEngine
{
    private static readonly FrozenDictionary<string, Coupon> DefaultCoupons = new[]
    {
        new Coupon("WELCOME10", CouponKind.PercentOff, 10m, new DateOnly(2024, 1, 1), new DateOnly(2030, 12, 31)),
        new Coupon("FREESHIP", CouponKind.FreeShipping, 0m, new DateOnly(2024, 1, 1), new DateOnly(2030, 12, 31), MinimumSubtotal: 25m),
        new Coupon("SPRING25", CouponKind.PercentOff, 25m, new DateOnly(2025, 3, 20), new DateOnly(2025, 6, 20), Category: "Beverages"),
        new Coupon("TAKE5", CouponKind.AmountOff, 5m, new DateOnly(2024, 1, 1), new DateOnly(2030, 12, 31), MinimumSubtotal: 40m),
    }.ToFrozenDictionary(c => c.Code, StringComparer.OrdinalIgnoreCase);

    private readonly PricingOptions _options;
    private readonly TimeProvider _timeProvider;
    private readonly FrozenDictionary<string, Coupon> _coupons;
    private readonly IReadOnlyList<IPricingRule> _rules;

    public PricingEngine(IOptions<PricingOptions> options, TimeProvider timeProvider)
        : this(options, timeProvider, DefaultCoupons.Values)
    {
    }

    public PricingEngine(IOptions<PricingOptions> options, TimeProvider timeProvider, IEnumerable<Coupon> coupons)
    {
        _options = options.Value;
        _timeProvider = timeProvider;
        _coupons = coupons.ToFrozenDictionary(c => c.Code, StringComparer.OrdinalIgnoreCase);
        _rules =
        [
            new ThreeForTwoRule(_options.ThreeForTwoCategories),
            new BulkQuantityRule(_options.BulkDiscountThreshold, _options.BulkDiscountPercent),
            new LoyaltyTierRule(_options.LoyaltyDiscountPercent),
            new CouponRule(),
        ];
    }

    /// <summary>Prices a basket described by <paramref name="context"/>.</summary>
    public PriceQuote Quote(PricingContext context)
    {
        ArgumentNullException.ThrowIfNull(context);
        if (context.Lines.Count == 0)
        {
            var zero = Money.Zero(context.Currency);
            return new PriceQuote(zero, FrozenDictionary<int, Money>.Empty, zero, [], zero, zero, [], null);
        }

        EnsureSingleCurrency(context);

        var sheet = new PricingWorksheet(context, context.Currency);
        if (context.CouponCode is { Length: > 0 } code)
        {
            var coupon = ValidateCoupon(code, sheet.Subtotal, Today());
            if (coupon.IsSuccess)
            {
                sheet.Coupon = coupon.Value;
            }
            else
            {
                sheet.Warnings.Add(coupon.Error.Message);
            }
        }

        foreach (var rule in _rules)
        {
            rule.Apply(sheet);
        }

        CapDiscounts(sheet);

        var discountedGoods = sheet.Subtotal - sheet.TotalDiscount;
        var shipping = CalculateShipping(discountedGoods, context.ShippingCountry, sheet.FreeShippingGranted);
        var tax = CalculateTax(discountedGoods + shipping, context.ShippingCountry);

        return new PriceQuote(
            sheet.Subtotal,
            sheet.LineDiscounts.Where(kv => !kv.Value.IsZero).ToFrozenDictionary(kv => kv.Key, kv => kv.Value.Round()),
            sheet.OrderDiscount.Round(),
            sheet.Applied,
            shipping,
            tax,
            sheet.Warnings,
            sheet.Coupon?.Code);
    }

    /// <summary>Convenience overload for callers that already have the lines.</summary>
    public PriceQuote Quote(IEnumerable<PricingLine> lines, CustomerTier tier, string shippingCountry, string? couponCode = null)
    {
        var materialized = lines.ToList();
        var currency = materialized.Count > 0 ? materialized[0].UnitPrice.Currency : Money.DefaultCurrency;
        return Quote(new PricingContext(materialized, tier, currency, shippingCountry, couponCode));
    }

    /// <summary>Checks that <paramref name="code"/> exists, is active today and the basket qualifies.</summary>
    public Result<Coupon> ValidateCoupon(string code, Money subtotal, DateOnly today)
    {
        if (!_coupons.TryGetValue(code.Trim(), out var coupon))
        {
            return Error.Validation("coupon.unknown", $"Coupon '{code}' does not exist.");
        }

        if (!coupon.IsValidOn(today))
        {
            return Error.Validation("coupon.expired", $"Coupon '{coupon.Code}' is not valid on {today:yyyy-MM-dd}.");
        }

        if (subtotal.Amount < coupon.MinimumSubtotal)
        {
            return Error.Validation(
                "coupon.minimum_not_met",
                $"Coupon '{coupon.Code}' requires a subtotal of at least {coupon.MinimumSubtotal:0.00} {subtotal.Currency}.");
        }

        return coupon;
    }

    public Money CalculateShipping(Money discountedGoods, string shippingCountry, bool freeShippingGranted = false)
    {
        var currency = discountedGoods.Currency;
        if (!string.Equals(shippingCountry, _options.HomeCountry, StringComparison.OrdinalIgnoreCase))
        {
            // International parcels never ship free; the carrier surcharge is too high.
            return Money.Of(_options.InternationalShippingFee, currency);
        }

        if (freeShippingGranted || discountedGoods.Amount >= _options.FreeShippingThreshold)
        {
            return Money.Zero(currency);
        }

        return Money.Of(_options.FlatShippingFee, currency);
    }

    public Money CalculateTax(Money taxableAmount, string shippingCountry)
    {
        if (!string.Equals(shippingCountry, _options.HomeCountry, StringComparison.OrdinalIgnoreCase))
        {
            return Money.Zero(taxableAmount.Currency);
        }

        return taxableAmount.Percent(_options.TaxRatePercent);
    }

    /// <summary>
    /// Scales every discount down by the same factor if together they exceed the configured cap,
    /// so the customer still sees each promotion, just smaller.
    /// </summary>
    private void CapDiscounts(PricingWorksheet sheet)
    {
        var cap = sheet.Subtotal.Percent(_options.MaxDiscountPercent);
        var total = sheet.TotalDiscount;
        if (total <= cap || total.IsZero)
        {
            return;
        }

        var factor = cap.Amount / total.Amount;
        foreach (var productId in sheet.LineDiscounts.Keys.ToList())
        {
            var line = sheet.LineDiscounts[productId];
            sheet.LineDiscounts[productId] = line with { Amount = Math.Round(line.Amount * factor, 2, MidpointRounding.ToZero) };
        }

        sheet.OrderDiscount = sheet.OrderDiscount with
        {
            Amount = Math.Round(sheet.OrderDiscount.Amount * factor, 2, MidpointRounding.ToZero),
        };

        for (var i = 0; i < sheet.Applied.Count; i++)
        {
            var applied = sheet.Applied[i];
            sheet.Applied[i] = applied with
            {
                Amount = applied.Amount with { Amount = Math.Round(applied.Amount.Amount * factor, 2, MidpointRounding.ToZero) },
            };
        }

        sheet.Warnings.Add($"Discounts were limited to {_options.MaxDiscountPercent:0.#}% of the order value.");
    }

    private static void EnsureSingleCurrency(PricingContext context)
    {
        var mismatch = context.Lines.FirstOrDefault(l => l.UnitPrice.Currency != context.Currency);
        if (mismatch is not null)
        {
            throw new InvalidOperationException(
                $"Line {mismatch.Sku} is priced in {mismatch.UnitPrice.Currency}, basket is in {context.Currency}.");
        }
    }

    private DateOnly Today() => DateOnly.FromDateTime(_timeProvider.GetUtcNow().UtcDateTime);

    /// <summary>Mutable state shared by the rules during one <see cref="Quote(PricingContext)"/> call.</summary>
    internal sealed class PricingWorksheet
    {
        public PricingWorksheet(PricingContext context, string currency)
        {
            Context = context;
            Currency = currency;
            Subtotal = context.Lines.Aggregate(Money.Zero(currency), (sum, l) => sum + l.GrossTotal);
            OrderDiscount = Money.Zero(currency);
            LineDiscounts = context.Lines.ToDictionary(l => l.ProductId, _ => Money.Zero(currency));
        }

        public PricingContext Context { get; }

        public string Currency { get; }

        public Money Subtotal { get; }

        public Dictionary<int, Money> LineDiscounts { get; }

        public Money OrderDiscount { get; set; }

        public Coupon? Coupon { get; set; }

        public bool FreeShippingGranted { get; set; }

        public List<AppliedDiscount> Applied { get; } = [];

        public List<string> Warnings { get; } = [];

        public Money TotalDiscount => LineDiscounts.Values.Aggregate(OrderDiscount, (sum, d) => sum + d);

        /// <summary>Subtotal after line-level discounts; order-level rules take their percentage of this.</summary>
        public Money SubtotalAfterLineDiscounts => LineDiscounts.Values.Aggregate(Subtotal, (sum, d) => sum - d);

        public void AddLineDiscount(string rule, PricingLine line, Money amount, string description)
        {
            if (amount.IsZero)
            {
                return;
            }

            LineDiscounts[line.ProductId] += amount;
            Applied.Add(new AppliedDiscount(rule, description, amount, line.ProductId));
        }

        public void AddOrderDiscount(string rule, Money amount, string description)
        {
            if (amount.IsZero)
            {
                return;
            }

            OrderDiscount += amount;
            Applied.Add(new AppliedDiscount(rule, description, amount));
        }
    }

    internal interface IPricingRule
    {
        string Name { get; }

        void Apply(PricingWorksheet sheet);
    }

    /// <summary>Every third unit in an eligible category is free.</summary>
    private sealed class ThreeForTwoRule(IReadOnlyCollection<string> categories) : IPricingRule
    {
        public string Name => "3-for-2";

        public void Apply(PricingWorksheet sheet)
        {
            foreach (var line in sheet.Context.Lines)
            {
                if (line.Quantity < 3 || !categories.Contains(line.Category, StringComparer.OrdinalIgnoreCase))
                {
                    continue;
                }

                var freeUnits = line.Quantity / 3;
                sheet.AddLineDiscount(Name, line, line.UnitPrice * freeUnits, $"{freeUnits} free {line.Category.ToLowerInvariant()} item(s)");
            }
        }
    }

    /// <summary>Percentage off a line once its quantity reaches the bulk threshold. Does not stack with 3-for-2.</summary>
    private sealed class BulkQuantityRule(int threshold, decimal percent) : IPricingRule
    {
        public string Name => "Bulk";

        public void Apply(PricingWorksheet sheet)
        {
            if (percent <= 0m)
            {
                return;
            }

            foreach (var line in sheet.Context.Lines)
            {
                var alreadyDiscounted = !sheet.LineDiscounts[line.ProductId].IsZero;
                if (line.Quantity < threshold || alreadyDiscounted)
                {
                    continue;
                }

                sheet.AddLineDiscount(Name, line, line.GrossTotal.Percent(percent), $"{percent:0.#}% off {line.Quantity} x {line.Sku}");
            }
        }
    }

    /// <summary>Silver and Gold customers get a percentage off the whole order.</summary>
    private sealed class LoyaltyTierRule(IReadOnlyDictionary<string, decimal> percentByTier) : IPricingRule
    {
        public string Name => "Loyalty";

        public void Apply(PricingWorksheet sheet)
        {
            var tier = sheet.Context.Tier;
            if (tier == CustomerTier.Standard || !percentByTier.TryGetValue(tier.ToString(), out var percent) || percent <= 0m)
            {
                return;
            }

            var amount = sheet.SubtotalAfterLineDiscounts.Percent(percent);
            sheet.AddOrderDiscount(Name, amount, $"{tier} member {percent:0.#}% discount");
        }
    }

    /// <summary>Applies the coupon validated earlier in <see cref="Quote(PricingContext)"/>, if any.</summary>
    private sealed class CouponRule : IPricingRule
    {
        public string Name => "Coupon";

        public void Apply(PricingWorksheet sheet)
        {
            if (sheet.Coupon is not { } coupon)
            {
                return;
            }

            switch (coupon.Kind)
            {
                case CouponKind.FreeShipping:
                    sheet.FreeShippingGranted = true;
                    sheet.Applied.Add(new AppliedDiscount(Name, $"{coupon.Code}: free shipping", Money.Zero(sheet.Currency)));
                    break;

                case CouponKind.AmountOff:
                    var remaining = sheet.Subtotal - sheet.TotalDiscount;
                    var amountOff = Money.Of(coupon.Value, sheet.Currency).Min(remaining);
                    sheet.AddOrderDiscount(Name, amountOff, $"{coupon.Code}: {coupon.Value:0.00} off");
                    break;

                case CouponKind.PercentOff when coupon.Category is null:
                    var orderAmount = sheet.SubtotalAfterLineDiscounts.Percent(coupon.Value);
                    sheet.AddOrderDiscount(Name, orderAmount, $"{coupon.Code}: {coupon.Value:0.#}% off");
                    break;

                case CouponKind.PercentOff:
                    ApplyCategoryCoupon(sheet, coupon);
                    break;

                default:
                    throw new InvalidOperationException($"Unsupported coupon kind {coupon.Kind}.");
            }
        }

        private void ApplyCategoryCoupon(PricingWorksheet sheet, Coupon coupon)
        {
            var eligible = sheet.Context.Lines
                .Where(l => string.Equals(l.Category, coupon.Category, StringComparison.OrdinalIgnoreCase))
                .ToList();

            if (eligible.Count == 0)
            {
                sheet.Warnings.Add($"Coupon '{coupon.Code}' only applies to {coupon.Category}.");
                return;
            }

            foreach (var line in eligible)
            {
                var remainingOnLine = line.GrossTotal - sheet.LineDiscounts[line.ProductId];
                sheet.AddLineDiscount(Name, line, remainingOnLine.Percent(coupon.Value), $"{coupon.Code}: {coupon.Value:0.#}% off {line.Sku}");
            }
        }
    }
}
