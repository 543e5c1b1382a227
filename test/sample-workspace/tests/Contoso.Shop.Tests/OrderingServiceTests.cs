using Contoso.Shop.Application.Data;
using Contoso.Shop.Application.Inventory;
using Contoso.Shop.Application.Options;
using Contoso.Shop.Application.Ordering;
using Contoso.Shop.Application.Payments;
using Contoso.Shop.Application.Pricing;
using Contoso.Shop.Domain.Catalog;
using Contoso.Shop.Domain.Common;
using Contoso.Shop.Domain.Customers;
using Contoso.Shop.Domain.Ordering;
using Contoso.Shop.Domain.ValueObjects;
using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.Logging.Abstractions;
using Microsoft.Extensions.Options;
using Microsoft.Extensions.Time.Testing;
using NSubstitute;

namespace Contoso.Shop.Tests;

public sealed class OrderingServiceTests : IDisposable
{
    private const int ChaiId = 1;
    private const int AniseedSyrupId = 3;

    private static readonly Guid CustomerId = Guid.Parse("6f1c2a9e-4b7d-4a51-9a43-0c6d2f8e1b11");
    private static readonly Address ShipTo = new("12 Orchestra Terrace", null, "Walla Walla", "99362", "US");

    private readonly string _databaseName = $"ordering-{Guid.NewGuid():N}";
    private readonly FakeTimeProvider _time = new(new DateTimeOffset(2025, 4, 15, 9, 30, 0, TimeSpan.Zero));
    private readonly IPaymentGateway _payments = Substitute.For<IPaymentGateway>();
    private readonly CheckoutOptions _checkout = new() { MaxItemsPerOrder = 20, Currency = "USD", PaymentWindow = TimeSpan.FromMinutes(30) };
    private readonly PaymentOptions _paymentOptions = new() { RetryPolicy = new RetryPolicyOptions { MaxAttempts = 2, BackoffMilliseconds = 0 } };
    private readonly ShopDbContext _db;

    public OrderingServiceTests()
    {
        _db = CreateContext();
        _db.Customers.Add(new Customer(CustomerId, "Maria Anders", "maria.anders@example.com", ShipTo));
        _db.Products.AddRange(
            new Product(ChaiId, "BEV-CHAI", "Chai", "Beverages", Money.Of(18m), unitsInStock: 39),
            new Product(AniseedSyrupId, "CON-ANIS", "Aniseed Syrup", "Condiments", Money.Of(10m), unitsInStock: 2));
        _db.SaveChanges();
        _db.ChangeTracker.Clear();

        _payments.AuthorizeAsync(Arg.Any<PaymentRequest>(), Arg.Any<CancellationToken>())
            .Returns(call => PaymentResult.Approved($"auth-{call.Arg<PaymentRequest>().OrderNumber}"));
    }

    public void Dispose() => _db.Dispose();

    [Fact]
    public async Task PlaceOrderAsync_ValidRequest_ReservesStockAndMarksOrderPaid()
    {
        // Arrange
        var service = CreateService();
        var request = Request(new PlaceOrderLine(ChaiId, 2));

        // Act
        var result = await service.PlaceOrderAsync(request);

        // Assert
        Assert.True(result.IsSuccess, result.Error?.Message);
        Assert.Equal(OrderStatus.Paid, result.Value.Status);
        Assert.StartsWith("SO-20250415-", result.Value.OrderNumber, StringComparison.Ordinal);

        await using var verify = CreateContext();
        var chai = await verify.Products.SingleAsync(p => p.Id == ChaiId);
        Assert.Equal(2, chai.UnitsReserved);
        var order = await verify.Orders.SingleAsync();
        Assert.Equal($"auth-{order.Number}", order.PaymentReference);
    }

    [Fact]
    public async Task PlaceOrderAsync_DuplicateProductLines_AreMergedIntoOneLine()
    {
        var service = CreateService();

        var result = await service.PlaceOrderAsync(Request(new PlaceOrderLine(ChaiId, 1), new PlaceOrderLine(ChaiId, 2)));

        Assert.True(result.IsSuccess);
        await using var verify = CreateContext();
        var order = await verify.Orders.SingleAsync();
        var line = Assert.Single(order.Lines);
        Assert.Equal(3, line.Quantity);
    }

    [Fact]
    public async Task PlaceOrderAsync_MoreThanMaxItemsPerOrder_ReturnsValidationError()
    {
        var service = CreateService();

        var result = await service.PlaceOrderAsync(Request(new PlaceOrderLine(ChaiId, _checkout.MaxItemsPerOrder + 1)));

        Assert.True(result.IsFailure);
        Assert.Equal("order.too_many_items", result.Error!.Code);
        await _payments.DidNotReceiveWithAnyArgs().AuthorizeAsync(default!, default);
    }

    [Fact]
    public async Task PlaceOrderAsync_InsufficientStock_ReturnsConflictAndSavesNothing()
    {
        var service = CreateService();

        var result = await service.PlaceOrderAsync(Request(new PlaceOrderLine(AniseedSyrupId, 5)));

        Assert.True(result.IsFailure);
        Assert.Equal(ErrorKind.Conflict, result.Error!.Kind);
        await using var verify = CreateContext();
        Assert.Empty(verify.Orders);
    }

    [Fact]
    public async Task PlaceOrderAsync_PaymentDeclined_DoesNotPersistOrderOrReservation()
    {
        _payments.AuthorizeAsync(Arg.Any<PaymentRequest>(), Arg.Any<CancellationToken>())
            .Returns(PaymentResult.Declined("Insufficient funds"));
        var service = CreateService();

        var result = await service.PlaceOrderAsync(Request(new PlaceOrderLine(ChaiId, 1)));

        Assert.Equal("payment.declined", result.Error?.Code);
        await using var verify = CreateContext();
        Assert.Empty(verify.Orders);
        Assert.Equal(0, (await verify.Products.SingleAsync(p => p.Id == ChaiId)).UnitsReserved);
    }

    [Fact]
    public async Task PlaceOrderAsync_TransientPaymentFailure_RetriesThenKeepsOrderAwaitingPayment()
    {
        _payments.AuthorizeAsync(Arg.Any<PaymentRequest>(), Arg.Any<CancellationToken>())
            .Returns(PaymentResult.TransientFailure("Processor timeout"));
        var service = CreateService();

        var result = await service.PlaceOrderAsync(Request(new PlaceOrderLine(ChaiId, 1)));

        Assert.True(result.IsSuccess);
        Assert.Equal(OrderStatus.AwaitingPayment, result.Value.Status);
        await _payments.Received(_paymentOptions.RetryPolicy.MaxAttempts)
            .AuthorizeAsync(Arg.Any<PaymentRequest>(), Arg.Any<CancellationToken>());
    }

    [Fact]
    public async Task CancelOrderAsync_PaidOrder_ReleasesStockAndVoidsAuthorization()
    {
        var placed = await CreateService().PlaceOrderAsync(Request(new PlaceOrderLine(ChaiId, 4)));
        _db.ChangeTracker.Clear();

        var result = await CreateService().CancelOrderAsync(placed.Value.OrderId, "Customer changed their mind");

        Assert.True(result.IsSuccess);
        Assert.Equal(OrderStatus.Cancelled, result.Value.Status);
        await _payments.Received(1).VoidAsync($"auth-{placed.Value.OrderNumber}", Arg.Any<CancellationToken>());
        await using var verify = CreateContext();
        Assert.Equal(0, (await verify.Products.SingleAsync(p => p.Id == ChaiId)).UnitsReserved);
    }

    [Fact]
    public async Task CancelOrderAsync_UnknownOrder_ReturnsNotFound()
    {
        var result = await CreateService().CancelOrderAsync(Guid.NewGuid(), "n/a");

        Assert.Equal(ErrorKind.NotFound, result.Error?.Kind);
    }

    [Fact]
    public async Task ExpireStaleOrdersAsync_AfterPaymentWindow_ExpiresOrderAndReleasesStock()
    {
        _payments.AuthorizeAsync(Arg.Any<PaymentRequest>(), Arg.Any<CancellationToken>())
            .Returns(PaymentResult.TransientFailure("Processor timeout"));
        await CreateService().PlaceOrderAsync(Request(new PlaceOrderLine(ChaiId, 3)));
        _db.ChangeTracker.Clear();

        _time.Advance(_checkout.PaymentWindow + TimeSpan.FromSeconds(1));
        var expired = await CreateService().ExpireStaleOrdersAsync();

        Assert.Equal(1, expired);
        await using var verify = CreateContext();
        Assert.Equal(OrderStatus.Expired, (await verify.Orders.SingleAsync()).Status);
        Assert.Equal(0, (await verify.Products.SingleAsync(p => p.Id == ChaiId)).UnitsReserved);
    }

    [Fact]
    public async Task ExpireStaleOrdersAsync_WithinPaymentWindow_LeavesOrderAlone()
    {
        _payments.AuthorizeAsync(Arg.Any<PaymentRequest>(), Arg.Any<CancellationToken>())
            .Returns(PaymentResult.TransientFailure("Processor timeout"));
        await CreateService().PlaceOrderAsync(Request(new PlaceOrderLine(ChaiId, 1)));

        _time.Advance(TimeSpan.FromMinutes(10));
        var expired = await CreateService().ExpireStaleOrdersAsync();

        Assert.Equal(0, expired);
    }

    private static PlaceOrderRequest Request(params PlaceOrderLine[] lines) =>
        new(CustomerId, lines, ShipTo, PaymentMethod: "card");

    private ShopDbContext CreateContext() =>
        new(new DbContextOptionsBuilder<ShopDbContext>().UseInMemoryDatabase(_databaseName).Options);

    private OrderingService CreateService()
    {
        var pricing = new PricingEngine(Options.Create(new PricingOptions { HomeCountry = "US" }), _time);
        return new OrderingService(
            _db,
            pricing,
            new InventoryReservationService(_db, NullLogger<InventoryReservationService>.Instance),
            _payments,
            Options.Create(_checkout),
            Options.Create(_paymentOptions),
            _time,
            NullLogger<OrderingService>.Instance);
    }
}
