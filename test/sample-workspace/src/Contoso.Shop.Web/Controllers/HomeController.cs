using Contoso.Shop.Application.Catalog;
using Contoso.Shop.Application.Options;
using Microsoft.AspNetCore.Mvc;
using Microsoft.Extensions.Options;

namespace Contoso.Shop.Web.Controllers;

public sealed record HomeViewModel(
    IReadOnlyList<CatalogItemDto> Featured,
    IReadOnlyList<string> Categories,
    decimal FreeShippingThreshold);

/// <summary>
/// The landing page is still an MVC view from the pre-Blazor site; the shop
/// itself (catalog, product pages, checkout) is Blazor. See docs/adr/0001-use-blazor-server.md.
/// </summary>
public sealed class HomeController(ICatalogService catalog, IOptions<PricingOptions> pricing) : Controller
{
    private const int FeaturedCount = 4;

    [HttpGet("/")]
    public async Task<IActionResult> Index(CancellationToken cancellationToken)
    {
        var items = await catalog.GetCatalogItemsAsync(pageSize: 24, cancellationToken: cancellationToken);
        var categories = await catalog.GetCategoriesAsync(cancellationToken);

        var featured = items
            .Where(i => i.InStock)
            .OrderByDescending(i => i.Price.Amount)
            .Take(FeaturedCount)
            .ToList();

        return View(new HomeViewModel(featured, categories, pricing.Value.FreeShippingThreshold));
    }

    [HttpGet("/error")]
    [ResponseCache(Duration = 0, Location = ResponseCacheLocation.None, NoStore = true)]
    public IActionResult Error() =>
        Problem(title: "Something went wrong", detail: "Please try again in a moment.");
}
