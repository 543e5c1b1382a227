using System.Linq.Expressions;
using Contoso.Shop.Domain.Catalog;
using Contoso.Shop.Domain.Common;
using Contoso.Shop.Domain.Customers;
using Contoso.Shop.Domain.Ordering;
using Contoso.Shop.Domain.ValueObjects;
using Microsoft.EntityFrameworkCore;
using Microsoft.EntityFrameworkCore.Metadata.Builders;

namespace Contoso.Shop.Application.Data;

/// <summary>
/// Read/write context for the ordering database (<c>ConnectionStrings:OrderingDb</c>).
/// </summary>
public class ShopDbContext : DbContext
{
    public ShopDbContext(DbContextOptions<ShopDbContext> options)
        : base(options)
    {
    }

    /// <summary>Lets derived contexts (e.g. <see cref="CatalogReadDbContext"/>) pass their own options type.</summary>
    protected ShopDbContext(DbContextOptions options)
        : base(options)
    {
    }

    public DbSet<Product> Products => Set<Product>();

    public DbSet<Order> Orders => Set<Order>();

    public DbSet<Customer> Customers => Set<Customer>();

    protected override void OnModelCreating(ModelBuilder modelBuilder)
    {
        modelBuilder.HasDefaultSchema("shop");

        ConfigureProduct(modelBuilder.Entity<Product>());
        ConfigureOrder(modelBuilder.Entity<Order>());
        ConfigureCustomer(modelBuilder.Entity<Customer>());
    }

    protected override void ConfigureConventions(ModelConfigurationBuilder configurationBuilder)
    {
        configurationBuilder.Properties<decimal>().HavePrecision(18, 2);
        configurationBuilder.Properties<string>().HaveMaxLength(256);
    }

    private static void ConfigureProduct(EntityTypeBuilder<Product> product)
    {
        product.ToTable("Products");
        product.HasKey(p => p.Id);
        product.Property(p => p.Id).ValueGeneratedNever();
        product.HasIndex(p => p.Sku).IsUnique();
        product.HasIndex(p => new { p.Category, p.Name });
        product.Property(p => p.Description).HasMaxLength(4000);
        product.Property(p => p.RowVersion).IsRowVersion();
        product.Ignore(p => p.DomainEvents);
        product.Ignore(p => p.Slug);

        product.ComplexProperty(p => p.Price, price =>
        {
            price.Property(m => m.Amount).HasColumnName("Price");
            price.Property(m => m.Currency).HasColumnName("Currency").HasMaxLength(3).IsFixedLength();
        });
    }

    private static void ConfigureOrder(EntityTypeBuilder<Order> order)
    {
        order.ToTable("Orders");
        order.HasKey(o => o.Id);
        order.HasIndex(o => o.Number).IsUnique();
        order.HasIndex(o => new { o.Status, o.ExpiresAtUtc });
        order.Property(o => o.Status).HasConversion<string>().HasMaxLength(32);
        order.Property(o => o.Currency).HasMaxLength(3).IsFixedLength();
        order.Property(o => o.RowVersion).IsRowVersion();
        order.Ignore(o => o.DomainEvents);

        order.HasOne(o => o.Customer)
            .WithMany()
            .HasForeignKey(o => o.CustomerId)
            .OnDelete(DeleteBehavior.Restrict);

        order.ComplexProperty(o => o.ShippingAddress, address =>
        {
            address.Property(a => a.Line1).HasColumnName("ShipLine1");
            address.Property(a => a.Line2).HasColumnName("ShipLine2");
            address.Property(a => a.City).HasColumnName("ShipCity");
            address.Property(a => a.PostalCode).HasColumnName("ShipPostalCode").HasMaxLength(16);
            address.Property(a => a.CountryCode).HasColumnName("ShipCountry").HasMaxLength(2);
        });

        MapMoney(order, o => o.DiscountTotal, "DiscountTotal");
        MapMoney(order, o => o.ShippingFee, "ShippingFee");
        MapMoney(order, o => o.Tax, "Tax");

        order.OwnsMany(o => o.Lines, line =>
        {
            line.ToTable("OrderLines");
            line.WithOwner().HasForeignKey("OrderId");
            line.HasKey(l => l.Id);
            line.Property(l => l.ProductName).HasMaxLength(Product.MaxNameLength);
            line.ComplexProperty(l => l.UnitPrice, m =>
            {
                m.Property(x => x.Amount).HasColumnName("UnitPrice");
                m.Property(x => x.Currency).HasColumnName("Currency").HasMaxLength(3).IsFixedLength();
            });
            line.ComplexProperty(l => l.Discount, m =>
            {
                m.Property(x => x.Amount).HasColumnName("Discount");
                m.Property(x => x.Currency).HasColumnName("DiscountCurrency").HasMaxLength(3).IsFixedLength();
            });
        });
        order.Navigation(o => o.Lines).UsePropertyAccessMode(PropertyAccessMode.Field);
    }

    private static void ConfigureCustomer(EntityTypeBuilder<Customer> customer)
    {
        customer.ToTable("Customers");
        customer.HasKey(c => c.Id);
        customer.HasIndex(c => c.Email).IsUnique();
        customer.Property(c => c.Tier).HasConversion<string>().HasMaxLength(16);
        customer.Property(c => c.RowVersion).IsRowVersion();
        customer.Ignore(c => c.DomainEvents);
        customer.OwnsOne(c => c.DefaultAddress);
    }

    private static void MapMoney(
        EntityTypeBuilder<Order> order,
        Expression<Func<Order, Money>> property,
        string column) =>
        order.ComplexProperty(property, money =>
        {
            money.Property(m => m.Amount).HasColumnName(column);
            money.Property(m => m.Currency).HasColumnName($"{column}Currency").HasMaxLength(3).IsFixedLength();
        });

    /// <summary>Collects and clears domain events from tracked aggregates, in tracking order.</summary>
    internal IReadOnlyList<IDomainEvent> DrainDomainEvents() =>
        ChangeTracker.Entries()
            .SelectMany(entry => entry.Entity switch
            {
                AggregateRoot<Guid> aggregate => aggregate.DequeueDomainEvents(),
                AggregateRoot<int> aggregate => aggregate.DequeueDomainEvents(),
                _ => [],
            })
            .ToList();
}

/// <summary>
/// No-tracking context over the catalog replica (<c>ConnectionStrings:CatalogDb</c>).
/// </summary>
public sealed class CatalogReadDbContext : ShopDbContext
{
    public CatalogReadDbContext(DbContextOptions<CatalogReadDbContext> options)
        : base(options)
    {
        ChangeTracker.QueryTrackingBehavior = QueryTrackingBehavior.NoTracking;
    }

    public override int SaveChanges(bool acceptAllChangesOnSuccess) =>
        throw new InvalidOperationException("The catalog context is read-only.");

    public override Task<int> SaveChangesAsync(bool acceptAllChangesOnSuccess, CancellationToken cancellationToken = default) =>
        throw new InvalidOperationException("The catalog context is read-only.");
}
