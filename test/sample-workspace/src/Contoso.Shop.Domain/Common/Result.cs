using System.Diagnostics.CodeAnalysis;

namespace Contoso.Shop.Domain.Common;

/// <summary>
/// Describes why an operation failed. <see cref="Code"/> is stable and safe to
/// show to API clients; <see cref="Message"/> is for humans.
/// </summary>
public sealed record Error(string Code, string Message, ErrorKind Kind = ErrorKind.Validation)
{
    public static Error NotFound(string entity, object id) =>
        new($"{entity.ToLowerInvariant()}.not_found", $"{entity} '{id}' was not found.", ErrorKind.NotFound);

    public static Error Validation(string code, string message) => new(code, message, ErrorKind.Validation);

    public static Error Conflict(string code, string message) => new(code, message, ErrorKind.Conflict);

    public static Error Unavailable(string code, string message) => new(code, message, ErrorKind.Unavailable);

    public override string ToString() => $"{Code}: {Message}";
}

public enum ErrorKind
{
    Validation,
    NotFound,
    Conflict,
    Unavailable,
}

/// <summary>
/// The outcome of an operation that either produced a <typeparamref name="T"/>
/// or failed with an <see cref="Common.Error"/>. Used instead of exceptions for
/// expected business failures (out of stock, invalid coupon, ...).
/// </summary>
public sealed class Result<T>
{
    private readonly T? _value;

    private Result(T value)
    {
        _value = value;
        IsSuccess = true;
    }

    private Result(Error error)
    {
        Error = error;
        IsSuccess = false;
    }

    [MemberNotNullWhen(false, nameof(Error))]
    public bool IsSuccess { get; }

    [MemberNotNullWhen(true, nameof(Error))]
    public bool IsFailure => !IsSuccess;

    public Error? Error { get; }

    /// <summary>The successful value. Throws when the result is a failure.</summary>
    public T Value => IsSuccess
        ? _value!
        : throw new InvalidOperationException($"Cannot read the value of a failed result ({Error}).");

    public static Result<T> Success(T value) => new(value);

    public static Result<T> Failure(Error error) => new(error);

    public static implicit operator Result<T>(T value) => Success(value);

    public static implicit operator Result<T>(Error error) => Failure(error);

    public Result<TOut> Map<TOut>(Func<T, TOut> map) =>
        IsSuccess ? Result<TOut>.Success(map(_value!)) : Result<TOut>.Failure(Error);

    public Result<TOut> Bind<TOut>(Func<T, Result<TOut>> bind) =>
        IsSuccess ? bind(_value!) : Result<TOut>.Failure(Error);

    public TOut Match<TOut>(Func<T, TOut> onSuccess, Func<Error, TOut> onFailure) =>
        IsSuccess ? onSuccess(_value!) : onFailure(Error);

    public override string ToString() => IsSuccess ? $"Success({_value})" : $"Failure({Error})";
}
