using System.ComponentModel;
using System.Reflection;
using CommunityToolkit.Mvvm.ComponentModel;
using CommunityToolkit.Mvvm.Input;
using Contoso.Shop.Application.Ordering;
using Contoso.Shop.Domain.Common;
using Contoso.Shop.Domain.Ordering;
using Microsoft.Extensions.DependencyInjection;

namespace Contoso.Shop.Desktop.ViewModels;

/// <summary>Right-hand detail pane for the order selected in the orders grid.</summary>
public partial class OrderDetailsViewModel(Order order, IServiceScopeFactory scopeFactory, Func<Task> onOrderChanged)
    : ViewModelBase(scopeFactory)
{
    public Order Order { get; } = order;

    public string Number => Order.Number;

    public OrderStatus Status => Order.Status;

    public string StatusText => Describe(Order.Status);

    public string PlacedAt => Order.PlacedAtUtc.ToLocalTime().ToString("g");

    public string CustomerName => Order.Customer?.Name ?? "(unknown customer)";

    public string CustomerEmail => Order.Customer?.Email ?? string.Empty;

    public string ShippingAddress => Order.ShippingAddress.ToMultiLine();

    public IReadOnlyList<OrderLine> Lines => Order.Lines;

    public string Subtotal => Order.Subtotal.ToString();

    public string Discount => Order.DiscountTotal.IsZero ? "-" : $"-{Order.DiscountTotal}";

    public string Shipping => Order.ShippingFee.IsZero ? "Free" : Order.ShippingFee.ToString();

    public string Tax => Order.Tax.ToString();

    public string Total => Order.Total.ToString();

    public bool CanShip => Order.Status == OrderStatus.Paid;

    public string? ShippedWith => Order.TrackingNumber is { } tracking ? $"Tracking: {tracking}" : null;

    [ObservableProperty]
    [NotifyCanExecuteChangedFor(nameof(MarkShippedCommand))]
    private string? _trackingNumber;

    [RelayCommand(CanExecute = nameof(CanMarkShipped))]
    private Task MarkShippedAsync() => RunBusyAsync(async () =>
    {
        var result = await UseServiceAsync<OrderingService, Result<Order>>(ordering =>
            ordering.ShipOrderAsync(Order.Id, TrackingNumber!.Trim()));

        if (result.IsFailure)
        {
            StatusMessage = result.Error.Message;
            return;
        }

        await onOrderChanged();
    });

    private bool CanMarkShipped() => CanShip && !string.IsNullOrWhiteSpace(TrackingNumber);

    private static string Describe(OrderStatus status) =>
        typeof(OrderStatus).GetField(status.ToString())?.GetCustomAttribute<DescriptionAttribute>()?.Description
        ?? status.ToString();
}
