using Avalonia.Controls;
using Contoso.Shop.Application.Inventory;

namespace Contoso.Shop.Desktop.Views;

public partial class InventoryView : UserControl
{
    public InventoryView()
    {
        InitializeComponent();
        StockGrid.LoadingRow += OnStockGridLoadingRow;
    }

    // Rows are recycled, so the class must be set (or cleared) every time a row is loaded.
    private static void OnStockGridLoadingRow(object? sender, DataGridRowEventArgs e) =>
        e.Row.Classes.Set("reorder", e.Row.DataContext is StockLevel { NeedsReorder: true });
}
