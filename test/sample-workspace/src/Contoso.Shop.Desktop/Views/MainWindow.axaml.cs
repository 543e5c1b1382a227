using Avalonia.Controls;
using Avalonia.Input;
using Avalonia.Interactivity;
using Contoso.Shop.Desktop.ViewModels;
using Contoso.Shop.Domain.Ordering;

namespace Contoso.Shop.Desktop.Views;

public partial class MainWindow : Window
{
    public MainWindow()
    {
        InitializeComponent();
        OrdersGrid.KeyDown += OnOrdersGridKeyDown;
    }

    private MainWindowViewModel? ViewModel => DataContext as MainWindowViewModel;

    protected override async void OnOpened(EventArgs e)
    {
        base.OnOpened(e);
        if (ViewModel is { } vm)
        {
            await vm.RefreshOrdersCommand.ExecuteAsync(null);
            await vm.Inventory.LoadStockCommand.ExecuteAsync(null);
        }
    }

    private async void OnCopyOrderNumberClick(object? sender, RoutedEventArgs e) =>
        await CopySelectedOrderNumberAsync();

    private async void OnOrdersGridKeyDown(object? sender, KeyEventArgs e)
    {
        if (e.Key == Key.C && e.KeyModifiers.HasFlag(KeyModifiers.Control))
        {
            e.Handled = true;
            await CopySelectedOrderNumberAsync();
        }
    }

    private async Task CopySelectedOrderNumberAsync()
    {
        if (OrdersGrid.SelectedItem is not Order order || Clipboard is not { } clipboard)
        {
            return;
        }

        await clipboard.SetTextAsync(order.Number);
        if (ViewModel is { } vm)
        {
            vm.StatusMessage = $"Copied {order.Number} to the clipboard.";
        }
    }
}
