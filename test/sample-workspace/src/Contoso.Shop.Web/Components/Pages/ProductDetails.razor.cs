using Contoso.Shop.Application.Cart;
using Contoso.Shop.Application.Catalog;
using Microsoft.AspNetCore.Components;
using Microsoft.JSInterop;

namespace Contoso.Shop.Web.Components.Pages;

public partial class ProductDetails
{
    private ProductDetailsDto? product;
    private bool loading = true;
    private int quantity = 1;
    private string? statusMessage;

    /// <summary>Product id from the <c>/products/{Id:int}</c> route.</summary>
    [Parameter]
    public int Id { get; set; }

    [Inject]
    private ICatalogService CatalogService { get; set; } = default!;

    [Inject]
    private ShoppingCart Cart { get; set; } = default!;

    [Inject]
    private IJSRuntime JS { get; set; } = default!;

    [Inject]
    private ILogger<ProductDetails> Logger { get; set; } = default!;

    private int MaxQuantity => Math.Max(1, Math.Min(product?.UnitsAvailable ?? 1, Cart.RemainingCapacity));

    protected override async Task OnParametersSetAsync()
    {
        loading = true;
        quantity = 1;
        statusMessage = null;

        product = await CatalogService.GetProductByIdAsync(Id);
        if (product is null)
        {
            Logger.LogInformation("Product {ProductId} requested but not found", Id);
        }

        loading = false;
    }

    private void IncrementQuantity() => quantity = Math.Min(quantity + 1, MaxQuantity);

    private void DecrementQuantity() => quantity = Math.Max(1, quantity - 1);

    private void ClampQuantity() => quantity = Math.Clamp(quantity, 1, MaxQuantity);

    private async Task AddToCartAsync()
    {
        if (product is null)
        {
            return;
        }

        var result = Cart.Add(product.ToCatalogItem(), quantity);
        if (result.IsFailure)
        {
            statusMessage = result.Error.Message;
            return;
        }

        statusMessage = $"Added {quantity} x {product.Name} to your cart.";

        // Lets offline.html show what was in the cart if the circuit drops.
        await JS.InvokeVoidAsync(
            "contosoCart.saveSnapshot",
            Cart.Items.Select(i => new { i.ProductId, i.Name, i.Quantity }).ToArray());
    }
}
