import Testing

/// The architecture is the target graph in Package.swift; these tests keep it, the imports and the README's drawing
/// the same thing.
@Suite("package graph")
struct PackageGraphTests {
    let graph: PackageGraph

    init() throws {
        graph = try PackageGraph()
    }

    /// The core's layers, the program's targets and the core's tests, so that the manifest parse cannot quietly find
    /// nothing.
    @Test func manifestIsRead() {
        for name in [
            "Text", "YAML", "Diagnostics", "Timelines", "Kind", "System", "Formats", "Output", "Config", "Control",
            "Providers", "Runtime", "Daemon", "CLI", "Main", "TimelinesTests",
        ] {
            #expect(graph.targets[name] != nil, "Package.swift has no target \(name)")
        }
        for target in graph.targets.values {
            #expect(
                target.unreadable == nil,
                "\(target.name)'s dependencies are not plain names: \(target.unreadable ?? "")")
        }
    }

    /// A test target per library target (issue 35, item 7): `NAMETests`, listing the target it tests, so that a type's
    /// unit tests have a place beside its module's and need not run the built program.
    @Test func everyLibraryTargetHasItsOwnTestTarget() {
        for target in graph.targets.values where target.type == "target" && target.directory.hasPrefix("Sources/") {
            let tests = graph.targets[target.name + "Tests"]
            #expect(tests?.type == "testTarget", "\(target.name) has no test target \(target.name)Tests")
            #expect(
                tests?.dependencies.contains(target.name) != false, "\(target.name)Tests does not list \(target.name)")
        }
    }

    /// SwiftPM lets a file import any module its target reaches through other targets; the graph only holds if every
    /// import is a dependency the target lists itself.
    @Test func everyImportIsADeclaredDependency() throws {
        for target in graph.targets.values {
            for (module, files) in try graph.imports(of: target) where module != target.name {
                #expect(
                    target.dependencies.contains(module),
                    "\(target.name) imports \(module) (\(files.sorted().joined(separator: ", "))) without listing it")
            }
        }
    }

    /// A listed dependency nothing imports is an edge the drawing shows and the code does not have.
    @Test func everyDeclaredDependencyIsImported() throws {
        for target in graph.targets.values where target.type != "systemLibrary" {
            let imported = Set(try graph.imports(of: target).keys)
            for dependency in target.dependencies.sorted() {
                #expect(imported.contains(dependency), "\(target.name) lists \(dependency) but no file imports it")
            }
        }
    }

    /// The layering the issue asks for: the engine knows no kind, output format, YAML or system call (a block's i3bar
    /// properties are Formats', carried on an entry as an `EntryPresentation` the engine cannot read); kinds know no
    /// config or output; outputs know no config, kind or YAML, and the formats no system call or file writer; nothing
    /// below the daemon knows the control protocol; the commands know no daemon.
    @Test(arguments: [
        (
            "Timelines",
            ["Kind", "Formats", "Output", "YAML", "Diagnostics", "Config", "System", "Control", "Providers"]
        ),
        ("Kind", ["Formats", "Output", "YAML", "Diagnostics", "Config", "System", "Control", "Providers"]),
        ("Formats", ["Output", "System", "Kind", "YAML", "Diagnostics", "Config", "Control", "Providers"]),
        ("Output", ["Kind", "YAML", "Diagnostics", "Config", "Control", "Providers"]),
        ("YAML", ["Timelines", "Kind", "Output", "Config", "System", "Control"]),
        ("System", ["Text", "YAML", "Timelines", "Kind", "Output", "Config", "Control"]),
        ("Text", ["YAML", "Timelines", "Kind", "Output", "Config", "System", "Control"]),
        ("Config", ["Control", "Providers"]),
        ("Control", ["Config", "YAML", "Providers"]),
        // The system kinds are kinds like any other: behind the kind boundary, knowing no config, output or store.
        (
            "SystemKinds",
            ["Formats", "Output", "YAML", "Diagnostics", "Config", "System", "Control", "Providers", "Store"]
        ),
        // The commands reach a running daemon only through its files and the FIFO, never its state (`widgetd run`
        // starts one through the `DaemonLauncher` that Main hands the CLI); what both share knows neither.
        ("CLI", ["Daemon"]),
        ("Runtime", ["CLI", "Daemon", "Main"]),
    ])
    func layerReachesNothingAboveIt(layer: String, forbidden: [String]) {
        let reached = graph.reachable(from: layer)
        for module in forbidden {
            #expect(!reached.contains(module), "\(layer) reaches \(module)")
        }
    }

    /// The drawings in README.md and docs/development.md list exactly the manifest's edges.
    @Test(arguments: [("README.md", "Target graph"), ("docs/development.md", "Target graph")])
    func drawnGraphIsTheManifest(file: String, marker: String) throws {
        let drawn = try PackageGraph.drawnGraph(in: file, after: marker)
        let declared = graph.targets.values.filter { $0.type == "target" || $0.type == "executableTarget" }
        #expect(!drawn.isEmpty, "\(file) draws no graph after '\(marker)'")
        for target in declared where target.name != "widgetd-bench" {
            #expect(
                drawn[target.name] == target.dependencies,
                "\(file) draws \(target.name) → \(drawn[target.name].map { $0.sorted().joined(separator: ", ") } ?? "nothing drawn"); Package.swift: \(target.dependencies.sorted().joined(separator: ", "))"
            )
        }
        for name in drawn.keys {
            #expect(graph.targets[name] != nil, "\(file) draws \(name), which Package.swift does not have")
        }
    }
}
