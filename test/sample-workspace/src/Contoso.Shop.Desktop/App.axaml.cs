using Avalonia;
using Avalonia.Controls.ApplicationLifetimes;
using Avalonia.Data.Core.Plugins;
using Avalonia.Markup.Xaml;
using Contoso.Shop.Application.DependencyInjection;
using Contoso.Shop.Desktop.ViewModels;
using Contoso.Shop.Desktop.Views;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.Configuration.Memory;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;

namespace Contoso.Shop.Desktop;

public partial class App : Avalonia.Application
{
    /// <summary>
    /// Defaults for a developer machine. appsettings.json next to the executable
    /// and CONTOSO_ environment variables override these.
    /// </summary>
    private static readonly Dictionary<string, string?> DefaultSettings = new()
    {
        ["ConnectionStrings:OrderingDb"] = @"Server=(localdb)\MSSQLLocalDB;Database=ContosoShop;Trusted_Connection=True;TrustServerCertificate=True",
        ["Shop:Checkout:Currency"] = "USD",
        ["Payments:Provider"] = "Simulated",
    };

    private IHost? _host;

    public override void Initialize() => AvaloniaXamlLoader.Load(this);

    public override void OnFrameworkInitializationCompleted()
    {
        _host = CreateHost();
        _host.Start();

        if (ApplicationLifetime is IClassicDesktopStyleApplicationLifetime desktop)
        {
            // CommunityToolkit.Mvvm validates view models itself; avoid duplicate error adorners.
            DisableAvaloniaDataAnnotationValidation();

            desktop.MainWindow = new MainWindow
            {
                DataContext = _host.Services.GetRequiredService<MainWindowViewModel>(),
            };
            desktop.ShutdownRequested += (_, _) => _host.Dispose();
        }

        base.OnFrameworkInitializationCompleted();
    }

    private static IHost CreateHost()
    {
        var builder = Host.CreateApplicationBuilder(new HostApplicationBuilderSettings
        {
            ApplicationName = "Contoso.Shop.Desktop",
            ContentRootPath = AppContext.BaseDirectory,
        });

        // Lowest precedence: insert before the JSON and environment sources the host added.
        builder.Configuration.Sources.Insert(0, new MemoryConfigurationSource { InitialData = DefaultSettings });
        builder.Configuration.AddEnvironmentVariables(prefix: "CONTOSO_");

        // The web host runs the expiration worker; the back office must not run it twice.
        builder.Services.AddShopApplication(builder.Configuration, runBackgroundWorkers: false);

        builder.Services.AddTransient<MainWindowViewModel>();
        builder.Services.AddTransient<InventoryViewModel>();

        return builder.Build();
    }

    private static void DisableAvaloniaDataAnnotationValidation()
    {
        var toRemove = BindingPlugins.DataValidators
            .OfType<DataAnnotationsValidationPlugin>()
            .ToArray();

        foreach (var plugin in toRemove)
        {
            BindingPlugins.DataValidators.Remove(plugin);
        }
    }
}
