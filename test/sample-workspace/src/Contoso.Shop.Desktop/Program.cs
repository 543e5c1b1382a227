using Avalonia;

namespace Contoso.Shop.Desktop;

internal static class Program
{
    // Avalonia must not be touched before Main; third-party and SynchronizationContext-reliant
    // code is not ready until AppMain is called.
    [STAThread]
    public static void Main(string[] args) =>
        BuildAvaloniaApp().StartWithClassicDesktopLifetime(args);

    // Also used by the visual designer.
    public static AppBuilder BuildAvaloniaApp() =>
        AppBuilder.Configure<App>()
            .UsePlatformDetect()
            .WithInterFont()
            .LogToTrace();
}
