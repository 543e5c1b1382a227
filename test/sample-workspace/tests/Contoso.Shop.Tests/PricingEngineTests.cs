using Contoso.Shop.Application.Options;
using Contoso.Shop.Application.Pricing;
using Contoso.Shop.Domain.Customers;
using Contoso.Shop.Domain.ValueObjects;
using Microsoft.Extensions.Options;
using Microsoft.Extensions.Time.Testing;

namespace Contoso.Shop.Tests;

public class PricingEngineTests
{
    private static readonly DateTimeOffset Today = new(2025, 4, 15, 10, 0, 0, TimeSpan.Zero);

    private readonly PricingOptions _options = new()
    {
        BulkDiscountThreshold = 10,
        BulkDiscountPercent = 5m,
        LoyaltyDiscountPercent = new(StringComparer.OrdinalIgnoreCase) { ["Silver"] = 5m, ["Gold"] = 10m },
        MaxDiscountPercent = 40m,
        HomeCountry = "US",
        FreeShippingThreshold = 75m,
        FlatShippingFee = 6.95m,
        InternationalShippingFee = 19.95m,
        TaxRatePercent = 10m,
        ThreeForTwoCategories = ["Condiments"],
    };

    private PricingEngine CreateEngine(params Coupon[] coupons)
    {
        var time = new FakeTimeProvider(Today);
        return coupons.Length == 0
            ? new PricingEngine(Options.Create(_options), time)
            : new PricingEngine(Options.Create(_options), time, coupons);
    }

    private static PricingLine Line(int id, string category, decimal price, int quantity) =>
        new(id, $"SKU-{id}", category, Money.Of(price), quantity);

    [Fact]
    public void Quote_EmptyBasket_ReturnsZeroTotal()
    {
        var engine = CreateEngine();

        var quote = engine.Quote([], CustomerTier.Standard, "US");

        Assert.True(quote.Total.IsZero);
        Assert.Empty(quote.Discounts);
    }

    [Fact]
    public void Quote_SmallDomesticOrder_ChargesFlatShippingAndTax()
    {
        var engine = CreateEngine();

        var quote = engine.Quote([Line(1, "Beverages", 18m, 2)], CustomerTier.Standard, "US");

        Assert.Equal(36m, quote.Subtotal.Amount);
        Assert.Equal(6.95m, quote.Shipping.Amount);
        Assert.Equal(4.30m, quote.Tax.Amount); // 10% of 42.95, banker's rounding
        Assert.Equal(47.25m, quote.Total.Amount);
    }

    [Fact]
    public void Quote_OrderAboveThreshold_ShipsFree()
    {
        var engine = CreateEngine();

        var quote = engine.Quote([Line(1, "Beverages", 40m, 2)], CustomerTier.Standard, "US");

        Assert.True(quote.HasFreeShipping);
    }

    [Fact]
    public void Quote_InternationalOrder_PaysInternationalFeeAndNoTax()
    {
        var engine = CreateEngine();

        var quote = engine.Quote([Line(1, "Beverages", 100m, 1)], CustomerTier.Standard, "DE");

        Assert.Equal(19.95m, quote.Shipping.Amount);
        Assert.True(quote.Tax.IsZero);
    }

    [Fact]
    public void Quote_ThreeOfAnEligibleCategory_MakesOneFree()
    {
        var engine = CreateEngine();

        var quote = engine.Quote([Line(7, "Condiments", 10m, 3)], CustomerTier.Standard, "US");

        Assert.Equal(10m, quote.LineDiscounts[7].Amount);
        Assert.Contains(quote.Discounts, d => d.RuleName == "3-for-2");
    }

    [Fact]
    public void Quote_BulkQuantity_AppliesBulkDiscount_ButNotOnTopOfThreeForTwo()
    {
        var engine = CreateEngine();

        var quote = engine.Quote(
            [Line(1, "Beverages", 4m, 10), Line(2, "Condiments", 3m, 12)],
            CustomerTier.Standard,
            "US");

        Assert.Equal(2m, quote.LineDiscounts[1].Amount);  // 5% of 40
        Assert.Equal(12m, quote.LineDiscounts[2].Amount); // 4 free units of 3.00
        Assert.DoesNotContain(quote.Discounts, d => d.RuleName == "Bulk" && d.ProductId == 2);
    }

    [Theory]
    [InlineData(CustomerTier.Standard, 0)]
    [InlineData(CustomerTier.Silver, 5)]
    [InlineData(CustomerTier.Gold, 10)]
    public void Quote_LoyaltyTier_GetsTierDiscount(CustomerTier tier, decimal expectedDiscount)
    {
        var engine = CreateEngine();

        var quote = engine.Quote([Line(1, "Produce", 50m, 2)], tier, "US");

        Assert.Equal(expectedDiscount, quote.OrderDiscount.Amount);
    }

    [Fact]
    public void Quote_UnknownCoupon_IsIgnoredWithWarning()
    {
        var engine = CreateEngine();

        var quote = engine.Quote([Line(1, "Produce", 20m, 1)], CustomerTier.Standard, "US", couponCode: "NOPE");

        Assert.Null(quote.AcceptedCouponCode);
        Assert.Contains(quote.Warnings, w => w.Contains("NOPE", StringComparison.Ordinal));
    }

    [Fact]
    public void Quote_FreeShippingCoupon_RemovesShippingFee()
    {
        var engine = CreateEngine(new Coupon("FREESHIP", CouponKind.FreeShipping, 0m, new(2025, 1, 1), new(2025, 12, 31)));

        var quote = engine.Quote([Line(1, "Produce", 20m, 1)], CustomerTier.Standard, "US", couponCode: "freeship");

        Assert.Equal("FREESHIP", quote.AcceptedCouponCode);
        Assert.True(quote.HasFreeShipping);
    }

    [Fact]
    public void Quote_CategoryCoupon_OnlyDiscountsMatchingLines()
    {
        var engine = CreateEngine(new Coupon("TEA20", CouponKind.PercentOff, 20m, new(2025, 1, 1), new(2025, 12, 31), Category: "Beverages"));

        var quote = engine.Quote(
            [Line(1, "Beverages", 10m, 2), Line(2, "Produce", 10m, 2)],
            CustomerTier.Standard,
            "US",
            couponCode: "TEA20");

        Assert.Equal(4m, quote.LineDiscounts[1].Amount);
        Assert.False(quote.LineDiscounts.ContainsKey(2));
    }

    [Fact]
    public void Quote_StackedDiscounts_AreCappedAtMaxDiscountPercent()
    {
        var engine = CreateEngine(new Coupon("HALF", CouponKind.PercentOff, 50m, new(2025, 1, 1), new(2025, 12, 31)));

        var quote = engine.Quote([Line(1, "Produce", 100m, 1)], CustomerTier.Gold, "US", couponCode: "HALF");

        Assert.Equal(40m, quote.DiscountTotal.Amount);
        Assert.Contains(quote.Warnings, w => w.Contains("limited", StringComparison.Ordinal));
    }

    [Fact]
    public void ValidateCoupon_OutsideValidityWindow_Fails()
    {
        var engine = CreateEngine(new Coupon("XMAS", CouponKind.PercentOff, 15m, new(2024, 12, 1), new(2024, 12, 26)));

        var result = engine.ValidateCoupon("XMAS", Money.Of(100m), DateOnly.FromDateTime(Today.UtcDateTime));

        Assert.True(result.IsFailure);
        Assert.Equal("coupon.expired", result.Error!.Code);
    }

    [Fact]
    public void Quote_MixedCurrencies_Throws()
    {
        var engine = CreateEngine();
        var context = new PricingContext(
            [Line(1, "Produce", 10m, 1), new PricingLine(2, "SKU-2", "Produce", Money.Of(10m, "EUR"), 1)],
            CustomerTier.Standard,
            "USD",
            "US");

        Assert.Throws<InvalidOperationException>(() => engine.Quote(context));
    }
}
