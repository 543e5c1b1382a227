using System.Collections.ObjectModel;
using CommunityToolkit.Mvvm.ComponentModel;
using CommunityToolkit.Mvvm.Input;
using Contoso.Shop.Application.Ordering;
using Contoso.Shop.Domain.Common;
using Contoso.Shop.Domain.Ordering;
using Microsoft.Extensions.DependencyInjection;

namespace Contoso.Shop.Desktop.ViewModels;

/// <summary>An entry in the status filter combo box. <c>null</c> status means "all".</summary>
public sealed record StatusFilterOption(string Label, OrderStatus? Status);

public partial class MainWindowViewModel : ViewModelBase
{
    private const int MaxOrdersShown = 200;
    private const string BackOfficeCancelReason = "Cancelled by back office";

    public MainWindowViewModel(IServiceScopeFactory scopeFactory, InventoryViewModel inventory)
        : base(scopeFactory)
    {
        Inventory = inventory;
        StatusFilters =
        [
            new StatusFilterOption("All orders", null),
            .. Enum.GetValues<OrderStatus>().Select(s => new StatusFilterOption(s.ToString(), s)),
        ];
        _selectedStatusFilter = StatusFilters[0];
    }

    public ObservableCollection<Order> Orders { get; } = [];

    public IReadOnlyList<StatusFilterOption> StatusFilters { get; }

    public InventoryViewModel Inventory { get; }

    [ObservableProperty]
    [NotifyCanExecuteChangedFor(nameof(CancelSelectedOrderCommand))]
    private Order? _selectedOrder;

    [ObservableProperty]
    private OrderDetailsViewModel? _orderDetails;

    [ObservableProperty]
    private StatusFilterOption _selectedStatusFilter;

    [ObservableProperty]
    private string? _searchText;

    public string OrdersSummary =>
        $"{Orders.Count} orders, {Orders.Count(o => o.Status == OrderStatus.Paid)} ready to ship";

    /// <summary>Reloads the orders grid using the current filter and search text. Bound to F5 and the Refresh button.</summary>
    [RelayCommand]
    private Task RefreshOrdersAsync(CancellationToken cancellationToken) => RunBusyAsync(async () =>
    {
        var selectedId = SelectedOrder?.Id;
        var orders = await UseServiceAsync<OrderingService, IReadOnlyList<Order>>(ordering =>
            ordering.GetRecentOrdersAsync(SelectedStatusFilter.Status, SearchText, MaxOrdersShown, cancellationToken));

        Orders.Clear();
        foreach (var order in orders)
        {
            Orders.Add(order);
        }

        SelectedOrder = selectedId is { } id ? Orders.FirstOrDefault(o => o.Id == id) : null;
        OnPropertyChanged(nameof(OrdersSummary));
        StatusMessage = $"Loaded {Orders.Count} orders at {DateTime.Now:t}.";
    });

    [RelayCommand(CanExecute = nameof(CanCancelSelectedOrder))]
    private Task CancelSelectedOrderAsync() => RunBusyAsync(async () =>
    {
        var order = SelectedOrder!;
        var result = await UseServiceAsync<OrderingService, Result<Order>>(ordering =>
            ordering.CancelOrderAsync(order.Id, BackOfficeCancelReason));

        StatusMessage = result.IsSuccess
            ? $"Order {order.Number} cancelled."
            : result.Error.Message;

        await RefreshOrdersCommand.ExecuteAsync(null);
    });

    private bool CanCancelSelectedOrder() =>
        SelectedOrder?.Status is OrderStatus.AwaitingPayment or OrderStatus.Paid;

    partial void OnSelectedOrderChanged(Order? value) =>
        OrderDetails = value is null
            ? null
            : new OrderDetailsViewModel(value, ScopeFactory, () => RefreshOrdersCommand.ExecuteAsync(null));

    partial void OnSelectedStatusFilterChanged(StatusFilterOption value)
    {
        if (RefreshOrdersCommand.CanExecute(null))
        {
            RefreshOrdersCommand.Execute(null);
        }
    }
}
