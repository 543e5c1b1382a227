namespace Contoso.Shop.Domain.Common;

/// <summary>
/// Marker for something that happened in the domain and that other parts of
/// the system may want to react to (send an e-mail, update a read model, ...).
/// </summary>
public interface IDomainEvent
{
    DateTimeOffset OccurredAtUtc { get; }
}

/// <summary>
/// Base class for entities identified by a key of type <typeparamref name="TId"/>.
/// </summary>
public abstract class Entity<TId>
    where TId : notnull
{
    public TId Id { get; protected set; } = default!;

    public override bool Equals(object? obj) =>
        obj is Entity<TId> other
        && other.GetType() == GetType()
        && EqualityComparer<TId>.Default.Equals(Id, other.Id);

    public override int GetHashCode() => HashCode.Combine(GetType(), Id);
}

/// <summary>
/// An entity that is the consistency boundary for its children and collects
/// domain events until the unit of work is committed.
/// </summary>
public abstract class AggregateRoot<TId> : Entity<TId>
    where TId : notnull
{
    private readonly List<IDomainEvent> _domainEvents = [];

    /// <summary>Concurrency token, mapped as a SQL Server <c>rowversion</c>.</summary>
    public byte[] RowVersion { get; private set; } = [];

    public IReadOnlyList<IDomainEvent> DomainEvents => _domainEvents;

    protected void Raise(IDomainEvent domainEvent) => _domainEvents.Add(domainEvent);

    /// <summary>
    /// Returns the pending events of type <typeparamref name="TEvent"/> without clearing them.
    /// </summary>
    public IEnumerable<TEvent> PendingEventsOf<TEvent>()
        where TEvent : IDomainEvent =>
        _domainEvents.OfType<TEvent>();

    public IReadOnlyList<IDomainEvent> DequeueDomainEvents()
    {
        var events = _domainEvents.ToArray();
        _domainEvents.Clear();
        return events;
    }
}
