using System.Globalization;

namespace Contoso.Shop.Domain.ValueObjects
{
    /// <summary>
    /// An amount of money in a specific ISO 4217 currency. Arithmetic between
    /// different currencies is a programming error and throws.
    /// </summary>
    public readonly record struct Money(decimal Amount, string Currency)
    {
        public const string DefaultCurrency = "USD";

        public static Money Zero(string currency = DefaultCurrency) => new(0m, currency);

        public static Money Of(decimal amount, string currency = DefaultCurrency) => new(amount, currency);

        public bool IsZero => Amount == 0m;

        public bool IsNegative => Amount < 0m;

        /// <summary>Adds another amount in the same currency.</summary>
        public Money Add(Money other)
        {
            EnsureSameCurrency(other);
            return this with { Amount = Amount + other.Amount };
        }

        /// <summary>Adds a raw amount expressed in this value's currency.</summary>
        public Money Add(decimal amount) => this with { Amount = Amount + amount };

        public Money Subtract(Money other)
        {
            EnsureSameCurrency(other);
            return this with { Amount = Amount - other.Amount };
        }

        public Money Multiply(int quantity) => this with { Amount = Amount * quantity };

        /// <summary>Returns <paramref name="percent"/> percent of this amount, rounded to cents.</summary>
        public Money Percent(decimal percent) =>
            this with { Amount = Math.Round(Amount * percent / 100m, 2, MidpointRounding.ToEven) };

        public Money Round() => this with { Amount = Math.Round(Amount, 2, MidpointRounding.ToEven) };

        public Money Min(Money other)
        {
            EnsureSameCurrency(other);
            return Amount <= other.Amount ? this : other;
        }

        public static Money operator +(Money left, Money right) => left.Add(right);

        public static Money operator -(Money left, Money right) => left.Subtract(right);

        public static Money operator *(Money money, int quantity) => money.Multiply(quantity);

        public static bool operator >(Money left, Money right)
        {
            left.EnsureSameCurrency(right);
            return left.Amount > right.Amount;
        }

        public static bool operator <(Money left, Money right)
        {
            left.EnsureSameCurrency(right);
            return left.Amount < right.Amount;
        }

        public static bool operator >=(Money left, Money right) => !(left < right);

        public static bool operator <=(Money left, Money right) => !(left > right);

        public override string ToString() =>
            string.Create(CultureInfo.InvariantCulture, $"{Amount:0.00} {Currency}");

        private void EnsureSameCurrency(Money other)
        {
            if (!string.Equals(Currency, other.Currency, StringComparison.Ordinal))
            {
                throw new InvalidOperationException(
                    $"Cannot combine amounts in {Currency} and {other.Currency}.");
            }
        }
    }
}
