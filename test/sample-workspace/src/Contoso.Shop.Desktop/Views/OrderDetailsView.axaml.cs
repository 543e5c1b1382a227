using Avalonia.Controls;
using Contoso.Shop.Desktop.ViewModels;
using Contoso.Shop.Domain.Ordering;

namespace Contoso.Shop.Desktop.Views;

public partial class OrderDetailsView : UserControl
{
    private static readonly string[] StatusClasses = ["awaiting", "paid", "shipped", "closed"];

    public OrderDetailsView()
    {
        InitializeComponent();
    }

    protected override void OnDataContextChanged(EventArgs e)
    {
        base.OnDataContextChanged(e);
        UpdateStatusBadge();
    }

    /// <summary>Maps the order status to one of the badge classes defined in Styles/Controls.axaml.</summary>
    private void UpdateStatusBadge()
    {
        StatusBadge.Classes.RemoveAll(StatusClasses);
        if (DataContext is OrderDetailsViewModel vm)
        {
            StatusBadge.Classes.Add(BadgeClassFor(vm.Status));
        }
    }

    private static string BadgeClassFor(OrderStatus status) => status switch
    {
        OrderStatus.AwaitingPayment => "awaiting",
        OrderStatus.Paid => "paid",
        OrderStatus.Shipped or OrderStatus.Delivered => "shipped",
        _ => "closed",
    };
}
