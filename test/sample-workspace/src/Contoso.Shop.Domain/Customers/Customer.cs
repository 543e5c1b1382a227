using System.ComponentModel.DataAnnotations;
using Contoso.Shop.Domain.Common;
using Contoso.Shop.Domain.ValueObjects;

namespace Contoso.Shop.Domain.Customers;

/// <summary>Loyalty tier, recalculated nightly from lifetime spend.</summary>
public enum CustomerTier
{
    Standard,
    Silver,
    Gold,
}

public sealed class Customer : AggregateRoot<Guid>
{
    private Customer()
    {
    }

    public Customer(Guid id, string name, string email, Address? defaultAddress = null)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(name);
        ArgumentException.ThrowIfNullOrWhiteSpace(email);

        Id = id;
        Name = name;
        Email = email.Trim().ToLowerInvariant();
        DefaultAddress = defaultAddress;
        Tier = CustomerTier.Standard;
    }

    [MaxLength(200)]
    public string Name { get; private set; } = string.Empty;

    [EmailAddress]
    public string Email { get; private set; } = string.Empty;

    public CustomerTier Tier { get; private set; }

    public Address? DefaultAddress { get; private set; }

    public decimal LifetimeSpend { get; private set; }

    public void RecordPurchase(Money total)
    {
        LifetimeSpend += total.Amount;
        Tier = LifetimeSpend switch
        {
            >= 5_000m => CustomerTier.Gold,
            >= 1_000m => CustomerTier.Silver,
            _ => CustomerTier.Standard,
        };
    }

    public void ChangeDefaultAddress(Address address) => DefaultAddress = address;

    public override string ToString() => $"{Name} <{Email}>";
}
