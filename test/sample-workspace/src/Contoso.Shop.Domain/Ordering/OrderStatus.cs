using System.ComponentModel;

namespace Contoso.Shop.Domain.Ordering
{
    /// <summary>Lifecycle of an <see cref="Order"/>.</summary>
    public enum OrderStatus
    {
        [Description("Waiting for payment")]
        AwaitingPayment = 0,

        [Description("Paid, ready to pick")]
        Paid = 1,

        [Description("Handed to carrier")]
        Shipped = 2,

        [Description("Delivered to customer")]
        Delivered = 3,

        [Description("Cancelled")]
        Cancelled = 4,

        [Description("Expired before payment")]
        Expired = 5,
    }

    public static class OrderStatusExtensions
    {
        public static bool IsFinal(this OrderStatus status) =>
            status is OrderStatus.Delivered or OrderStatus.Cancelled or OrderStatus.Expired;

        public static bool HoldsInventory(this OrderStatus status) =>
            status is OrderStatus.AwaitingPayment or OrderStatus.Paid;
    }
}
