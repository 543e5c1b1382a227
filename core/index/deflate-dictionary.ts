// The preset dictionary of the per-file deflate streams (file-data.ts): common .NET, Razor, AXAML,
// JSON and MSBuild text, plus the stored meta JSON's own keys. Deflate can refer back into it from
// the first byte of a file, which is what makes small files compress (about 10% smaller overall on
// a generated C# solution). Part of index format 3: changing one byte makes stored blobs unreadable,
// so a new dictionary needs a new format version.
export const FORMAT_3_DICTIONARY: string = `<?xml version="1.0" encoding="utf-8"?>
<Project Sdk="Microsoft.NET.Sdk"><PropertyGroup><TargetFramework>net8.0</TargetFramework><Nullable>enable</Nullable><ImplicitUsings>enable</ImplicitUsings></PropertyGroup><ItemGroup><PackageReference Include="Microsoft.Extensions. Version=" /><ProjectReference Include="..\\
<UserControl xmlns="https://github.com/avaloniaui" xmlns:x="http://schemas.microsoft.com/winfx/2006/xaml" xmlns:d="http://schemas.microsoft.com/expression/blend/2008" xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006" mc:Ignorable="d" x:Class=" x:DataType="vm: <Grid RowDefinitions="Auto,*"> <StackPanel Orientation="Horizontal" Spacing="8"> <TextBlock Text="{Binding  <Button Content=" Command="{Binding  <Style Selector=" <Setter Property=" Value=" />
@page "/ @using @inject @code { [Parameter] public  <div class=" @onclick=" @bind-Value=" <EditForm Model="@ OnValidSubmit=" </div>
{ "Logging": { "LogLevel": { "Default": "Information", "Microsoft.AspNetCore": "Warning" } }, "ConnectionStrings": { "AllowedHosts": "*" }
using System;
using System.Collections.Generic;
using System.Linq;
using System.Threading;
using System.Threading.Tasks;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.EntityFrameworkCore;
using CommunityToolkit.Mvvm.ComponentModel;
using CommunityToolkit.Mvvm.Input;

namespace 
/// <summary>
/// </summary>
/// <param name="cancellationToken"></param>
/// <returns></returns>
public sealed class 
public class 
public partial class 
public interface I
public record 
internal sealed class 
private readonly ILogger<
private readonly 
public static 
public async Task<
public async Task 
protected override void 
public override string ToString()
    [ObservableProperty]
    [RelayCommand]
    private string _name = string.Empty;
    public string Name { get; set; } = string.Empty;
    public Guid Id { get; init; }
    public int Count { get; set; }
    public DateTimeOffset CreatedAt { get; set; }
    public bool IsEnabled { get; private set; }
    CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(
        if (string.IsNullOrWhiteSpace(
        if (result is null)
        {
            return null;
        }
        throw new InvalidOperationException($"
        throw new ArgumentException(
        await _dbContext.SaveChangesAsync(cancellationToken).ConfigureAwait(false);
        _logger.LogInformation("
        _logger.LogWarning("
        return await 
        var result = await 
        foreach (var item in 
        return new 
    }
}
{"o":[["namespace","class","method","property","constructor","field","record","interface","enum","section","key",0,[["],"h":["using ","k":[0,""f":["using Microsoft.Extensions.`;
