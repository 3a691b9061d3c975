import Foundation
import TimeZones

@testable import Timelines

/// A cron expression from any text, then the next fire times in a zone with daylight saving time.
///
/// Every answer must be strictly later than the one before, so the search always moves forward, and an expression
/// `check` rejects as never firing must find no fire time.
let zones = ["UTC", "Europe/Berlin", "America/New_York", "Australia/Lord_Howe", "Pacific/Chatham"].compactMap {
    try? Zone.load(identifier: $0)
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size >= 1 else { return 0 }
    // The first byte picks the zone and the start time; the rest is the expression.
    let zone = zones[Int(data[0]) % zones.count]
    let text = String(decoding: UnsafeBufferPointer(start: data + 1, count: size - 1), as: UTF8.self)
    guard let expression = try? CronExpression(parsing: text) else { return 0 }
    var date = Date(timeIntervalSince1970: 1_700_000_000 + Double(data[0]) * 86_400 * 29)
    // `check`'s static "never fires" must agree with the search: nothing within its 8 years.
    if let reason = expression.neverFiresReason, let next = expression.nextDate(after: date, in: zone) {
        fatalError("'\(text)' said to never fire (\(reason.text)) fires at \(next)")
    }
    for _ in 0..<8 {
        guard let next = expression.nextDate(after: date, in: zone) else { break }
        if next <= date { fatalError("'\(text)': \(next) is not after \(date)") }
        date = next
    }
    return 0
}
