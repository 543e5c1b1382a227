using Contoso.Shop.Application.Catalog;
using Contoso.Shop.Application.Data;
using Contoso.Shop.Domain.Catalog;
using Contoso.Shop.Domain.ValueObjects;
using Microsoft.EntityFrameworkCore;
using Microsoft.EntityFrameworkCore.Infrastructure;
using Microsoft.Extensions.Caching.Memory;
using Microsoft.Extensions.Logging.Abstractions;

namespace Contoso.Shop.Tests;

public sealed class CatalogServiceTests : IDisposable
{
    private readonly string _databaseName = $"catalog-{Guid.NewGuid():N}";
    private readonly MemoryCache _cache = new(new MemoryCacheOptions { SizeLimit = 100 });
    private readonly CatalogService _service;

    public CatalogServiceTests()
    {
        using (var db = CreateWritableContext())
        {
            var syrup = new Product(3, "CON-ANIS", "Aniseed Syrup", "Condiments", Money.Of(10m), unitsInStock: 13);
            var gumbo = new Product(5, "CON-GUMB", "Chef Anton's Gumbo Mix", "Condiments", Money.Of(21.35m), unitsInStock: 0);
            var discontinued = new Product(9, "MEA-MISH", "Mishi Kobe Niku", "Meat/Poultry", Money.Of(97m), unitsInStock: 29);
            discontinued.Discontinue();
            var reservedOut = new Product(11, "DAI-QUES", "Queso Cabrales", "Dairy Products", Money.Of(21m), unitsInStock: 4);
            reservedOut.Reserve(4);

            db.Products.AddRange(
                new Product(1, "BEV-CHAI", "Chai", "Beverages", Money.Of(18m), unitsInStock: 39),
                new Product(2, "BEV-CHAN", "Chang", "Beverages", Money.Of(19m), unitsInStock: 17),
                syrup,
                gumbo,
                discontinued,
                reservedOut);
            db.SaveChanges();
        }

        var readOptions = new DbContextOptionsBuilder<CatalogReadDbContext>().UseInMemoryDatabase(_databaseName).Options;
        _service = new CatalogService(
            new PooledDbContextFactory<CatalogReadDbContext>(readOptions),
            _cache,
            NullLogger<CatalogService>.Instance);
    }

    public void Dispose() => _cache.Dispose();

    [Fact]
    public async Task GetCatalogItemsAsync_WithoutCategory_ReturnsActiveProductsSortedByCategoryThenName()
    {
        var items = await _service.GetCatalogItemsAsync();

        Assert.Equal(
            ["Chai", "Chang", "Aniseed Syrup", "Chef Anton's Gumbo Mix", "Queso Cabrales"],
            items.Select(i => i.Name));
    }

    [Fact]
    public async Task GetCatalogItemsAsync_WithCategory_ReturnsOnlyThatCategory()
    {
        var items = await _service.GetCatalogItemsAsync(category: "Condiments");

        Assert.All(items, i => Assert.Equal("Condiments", i.Category));
        Assert.Equal(2, items.Count);
    }

    [Fact]
    public async Task GetCatalogItemsAsync_DiscontinuedProduct_IsExcluded()
    {
        var items = await _service.GetCatalogItemsAsync(category: "Meat/Poultry");

        Assert.Empty(items);
    }

    [Fact]
    public async Task GetCatalogItemsAsync_SecondPage_SkipsFirstPage()
    {
        var page2 = await _service.GetCatalogItemsAsync(page: 2, pageSize: 2);

        Assert.Equal(["Aniseed Syrup", "Chef Anton's Gumbo Mix"], page2.Select(i => i.Name));
    }

    [Fact]
    public async Task GetCatalogItemsAsync_PageBelowOne_Throws()
    {
        await Assert.ThrowsAsync<ArgumentOutOfRangeException>(() => _service.GetCatalogItemsAsync(page: 0));
    }

    [Theory]
    [InlineData(1, true)]   // plenty of stock
    [InlineData(5, false)]  // none in stock
    [InlineData(11, false)] // everything reserved by pending orders
    public async Task GetCatalogItemsAsync_InStock_ReflectsAvailableUnits(int productId, bool expectedInStock)
    {
        var items = await _service.GetCatalogItemsAsync();

        Assert.Equal(expectedInStock, items.Single(i => i.Id == productId).InStock);
    }

    [Fact]
    public async Task GetProductByIdAsync_ExistingProduct_ReturnsDetailsWithAvailableUnits()
    {
        var product = await _service.GetProductByIdAsync(3);

        Assert.NotNull(product);
        Assert.Equal("CON-ANIS", product.Sku);
        Assert.Equal(13, product.UnitsAvailable);
        Assert.Equal(Money.Of(10m), product.Price);
    }

    [Theory]
    [InlineData(404)]
    [InlineData(9)] // discontinued
    public async Task GetProductByIdAsync_UnknownOrDiscontinuedProduct_ReturnsNull(int productId)
    {
        Assert.Null(await _service.GetProductByIdAsync(productId));
    }

    [Fact]
    public async Task GetCategoriesAsync_SecondCall_IsServedFromCache()
    {
        var first = await _service.GetCategoriesAsync();

        using (var db = CreateWritableContext())
        {
            db.Products.Add(new Product(20, "CON-SIR", "Sir Rodney's Marmalade", "Confections", Money.Of(81m), unitsInStock: 40));
            await db.SaveChangesAsync();
        }

        var second = await _service.GetCategoriesAsync();

        Assert.Equal(["Beverages", "Condiments", "Dairy Products"], first);
        Assert.Same(first, second);
        Assert.True(_cache.TryGetValue(CatalogService.CategoriesCacheKey, out _));
    }

    [Fact]
    public async Task CatalogReadDbContext_SaveChanges_IsRejected()
    {
        var options = new DbContextOptionsBuilder<CatalogReadDbContext>().UseInMemoryDatabase(_databaseName).Options;
        await using var readOnly = new CatalogReadDbContext(options);

        await Assert.ThrowsAsync<InvalidOperationException>(() => readOnly.SaveChangesAsync());
    }

    private ShopDbContext CreateWritableContext() =>
        new(new DbContextOptionsBuilder<ShopDbContext>().UseInMemoryDatabase(_databaseName).Options);
}
