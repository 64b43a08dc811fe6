// [Browser] swipe-navigation: `auto` by default (on while a touchpad or touchscreen is connected),
// `true` or `false` when the admin says so, anything else a problem.
import Foundation
import PortholeCore
import XCTest

/// Loads `text` as the only configuration file.
private func load(_ text: String) -> ConfigLoadResult {
    let path = NSTemporaryDirectory() + "porthole-browser-\(UUID().uuidString).conf"
    try? text.write(toFile: path, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(atPath: path) }
    return ConfigLoader.load(sources: ConfigSources(commandLine: path), validateFilter: { _ in nil })
}

final class ConfigSwipeNavigationTests: XCTestCase {

    func testSwipeNavigationIsAutoUnlessSet() {
        let rows: [(String?, SwipeNavigation)] = [
            (nil, .auto),
            ("auto", .auto),
            ("true", .on),
            ("false", .off),
            ("1", .on),  // GKeyFile reads 1 and 0 as booleans too
            ("0", .off),
        ]
        for (value, expected) in rows {
            let text = "[Sites]\nA=a.example\n" + (value.map { "[Browser]\nswipe-navigation=\($0)\n" } ?? "")
            XCTAssertEqual(load(text).configuration?.browser.swipeNavigation, expected, "\(value ?? "unset")")
        }
        let bad = load("[Sites]\nA=a.example\n[Browser]\nswipe-navigation=sometimes\n")
        XCTAssertEqual(bad.problems.map(\.key), ["Browser/swipe-navigation"])
        XCTAssertTrue(bad.problems.first?.description.hasSuffix("expected auto, true or false") ?? false, "\(bad.problems)")
    }

    func testAutoSwipesOnlyWithATouchpadOrTouchscreen() {
        let rows: [(SwipeNavigation, [InputDeviceKind], Bool)] = [
            (.auto, [], false),
            (.auto, [.mouse, .keyboard], false),
            (.auto, [.pen, .other], false),
            (.auto, [.mouse, .touchpad], true),
            (.auto, [.touchscreen], true),
            (.on, [], true),
            (.on, [.mouse], true),
            (.off, [.touchpad, .touchscreen], false),
        ]
        for (mode, devices, enabled) in rows {
            XCTAssertEqual(mode.isEnabled(devices: devices), enabled, "\(mode) \(devices)")
        }
    }
}

/// [Browser] gpu-painting: `auto` paints on the CPU where the machine has no GPU, `true` and
/// `false` as the admin says, WebKit's own variable in the environment above all.
final class ConfigGPUPaintingTests: XCTestCase {

    func testGPUPaintingIsAutoUnlessSet() {
        let rows: [(String?, GPUPainting)] = [(nil, .auto), ("auto", .auto), ("true", .on), ("false", .off), ("1", .on), ("0", .off)]
        for (value, expected) in rows {
            let text = "[Sites]\nA=a.example\n" + (value.map { "[Browser]\ngpu-painting=\($0)\n" } ?? "")
            XCTAssertEqual(load(text).configuration?.browser.gpuPainting, expected, "\(value ?? "unset")")
        }
        let bad = load("[Sites]\nA=a.example\n[Browser]\ngpu-painting=fast\n")
        XCTAssertEqual(bad.problems.map { "\($0.key ?? "?"): \($0.description.hasSuffix("expected auto, true or false"))" },
                       ["Browser/gpu-painting: true"])
    }

    func testPagesArePaintedOnTheGPUOnlyWhereThereIsOne() {
        let cpu = [GPUPainting.cpuPaintingVariable: "1"]
        let rows: [(GPUPainting, Bool, [String: String], Bool, [String: String], UInt)] = [
            // choice, render node, environment → on the GPU, variables to set
            (.auto, true, [:], true, [:], #line),
            (.auto, false, [:], false, cpu, #line),                                  // llvmpipe only
            (.auto, true, ["LIBGL_ALWAYS_SOFTWARE": "1"], false, cpu, #line),        // GL forced to software
            (.auto, true, ["LIBGL_ALWAYS_SOFTWARE": "0"], true, [:], #line),
            (.auto, true, ["LIBGL_ALWAYS_SOFTWARE": ""], true, [:], #line),
            (.on, false, [:], true, [:], #line),                                     // the admin asks for it
            (.off, true, [:], false, cpu, #line),
            (.auto, false, [GPUPainting.cpuPaintingVariable: "0"], true, [:], #line), // WebKit's own variable decides
            (.off, true, [GPUPainting.cpuPaintingVariable: "0"], true, [:], #line),
            (.on, true, [GPUPainting.cpuPaintingVariable: "1"], false, [:], #line),  // already set: nothing to add
        ]
        for (choice, node, environment, onGPU, toSet, line) in rows {
            XCTAssertEqual(choice.paintsOnGPU(hasRenderNode: node, environment: environment), onGPU, line: line)
            XCTAssertEqual(choice.environmentToSet(hasRenderNode: node, environment: environment), toSet, line: line)
        }
    }
}
