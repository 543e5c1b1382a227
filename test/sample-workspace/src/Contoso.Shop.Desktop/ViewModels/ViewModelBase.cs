using CommunityToolkit.Mvvm.ComponentModel;
using Microsoft.Extensions.DependencyInjection;

namespace Contoso.Shop.Desktop.ViewModels;

/// <summary>
/// Base for back-office view models. Each operation resolves its services from
/// a fresh DI scope so a long-lived window never holds on to a stale DbContext.
/// </summary>
public abstract partial class ViewModelBase(IServiceScopeFactory scopeFactory) : ObservableObject
{
    [ObservableProperty]
    private bool _isBusy;

    [ObservableProperty]
    private string? _statusMessage;

    protected IServiceScopeFactory ScopeFactory { get; } = scopeFactory;

    /// <summary>Runs <paramref name="action"/> against a scoped <typeparamref name="TService"/>.</summary>
    protected async Task<TResult> UseServiceAsync<TService, TResult>(Func<TService, Task<TResult>> action)
        where TService : notnull
    {
        await using var scope = ScopeFactory.CreateAsyncScope();
        return await action(scope.ServiceProvider.GetRequiredService<TService>());
    }

    /// <summary>Sets <see cref="IsBusy"/> for the duration of <paramref name="work"/> and reports failures in the status bar.</summary>
    protected async Task RunBusyAsync(Func<Task> work)
    {
        IsBusy = true;
        try
        {
            await work();
        }
        catch (OperationCanceledException)
        {
            StatusMessage = "Cancelled.";
        }
        catch (Exception ex)
        {
            StatusMessage = $"Error: {ex.Message}";
        }
        finally
        {
            IsBusy = false;
        }
    }
}
