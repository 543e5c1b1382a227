namespace Contoso.Shop.Domain.ValueObjects
{
    /// <summary>A postal address used for shipping and billing.</summary>
    public sealed record Address(
        string Line1,
        string? Line2,
        string City,
        string PostalCode,
        string CountryCode)
    {
        public bool IsDomestic(string homeCountry) =>
            string.Equals(CountryCode, homeCountry, StringComparison.OrdinalIgnoreCase);

        public string ToSingleLine() => string.Join(", ", Parts());

        public string ToMultiLine() => string.Join(Environment.NewLine, Parts());

        private IEnumerable<string> Parts()
        {
            yield return Line1;
            if (!string.IsNullOrWhiteSpace(Line2))
            {
                yield return Line2;
            }

            yield return $"{PostalCode} {City}";
            yield return CountryCode.ToUpperInvariant();
        }
    }
}
