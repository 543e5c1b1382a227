using System.Collections.ObjectModel;
using CommunityToolkit.Mvvm.ComponentModel;
using CommunityToolkit.Mvvm.Input;
using Contoso.Shop.Application.Inventory;
using Contoso.Shop.Domain.Common;
using Microsoft.Extensions.DependencyInjection;

namespace Contoso.Shop.Desktop.ViewModels;

public partial class InventoryViewModel(IServiceScopeFactory scopeFactory) : ViewModelBase(scopeFactory)
{
    public ObservableCollection<StockLevel> StockLevels { get; } = [];

    [ObservableProperty]
    private bool _onlyLowStock = true;

    [ObservableProperty]
    [NotifyCanExecuteChangedFor(nameof(RestockCommand))]
    private StockLevel? _selectedStockLevel;

    [ObservableProperty]
    [NotifyCanExecuteChangedFor(nameof(RestockCommand))]
    private decimal? _restockQuantity = 24;

    public int LowStockCount => StockLevels.Count(s => s.NeedsReorder);

    [RelayCommand]
    private Task LoadStockAsync(CancellationToken cancellationToken) => RunBusyAsync(async () =>
    {
        var levels = await UseServiceAsync<InventoryReservationService, IReadOnlyList<StockLevel>>(inventory =>
            inventory.GetStockLevelsAsync(OnlyLowStock, cancellationToken));

        StockLevels.Clear();
        foreach (var level in levels)
        {
            StockLevels.Add(level);
        }

        OnPropertyChanged(nameof(LowStockCount));
        StatusMessage = $"{LowStockCount} products at or below their reorder level.";
    });

    [RelayCommand(CanExecute = nameof(CanRestock))]
    private Task RestockAsync() => RunBusyAsync(async () =>
    {
        var target = SelectedStockLevel!;
        var quantity = (int)RestockQuantity!.Value;

        var result = await UseServiceAsync<InventoryReservationService, Result<StockLevel>>(inventory =>
            inventory.RestockAsync(target.ProductId, quantity));

        if (result.IsFailure)
        {
            StatusMessage = result.Error.Message;
            return;
        }

        var index = StockLevels.IndexOf(target);
        if (index >= 0)
        {
            StockLevels[index] = result.Value;
        }

        SelectedStockLevel = result.Value;
        OnPropertyChanged(nameof(LowStockCount));
        StatusMessage = $"Added {quantity} units of {target.Sku}; {result.Value.UnitsAvailable} now available.";
    });

    private bool CanRestock() => SelectedStockLevel is not null && RestockQuantity is > 0;

    partial void OnOnlyLowStockChanged(bool value) => LoadStockCommand.Execute(null);
}
