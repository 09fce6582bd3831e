import Foundation

/// The process's resident memory, read from `/proc/self/status`.
public enum PeakMemory {
    /// The high-water mark of resident memory (`VmHWM`), in bytes; `nil` where `/proc` does not say.
    public static func peakResidentBytes() -> Int? { field("VmHWM") }

    /// The resident memory now (`VmRSS`), in bytes.
    public static func residentBytes() -> Int? { field("VmRSS") }

    private static func field(_ name: String) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix(name + ":") {
            let kilobytes = line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first
            return kilobytes.flatMap { Int($0) }.map { $0 * 1024 }
        }
        return nil
    }
}
