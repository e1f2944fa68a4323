import CacheStore

/// "512 B", "24.0 KiB", "1.5 MiB": sizes for people.
func formatBytes(_ bytes: Int64) -> String {
    let units = ["B", "KiB", "MiB", "GiB", "TiB"]
    var value = Double(bytes)
    var unit = 0
    while value >= 1024, unit < units.count - 1 {
        value /= 1024
        unit += 1
    }
    if unit == 0 { return "\(bytes) B" }
    let rounded = (value * 10).rounded() / 10
    return "\(rounded) \(units[unit])"
}

/// Space VACUUM gives back, "at least 920.0 KiB": free pages are what it
/// surely reclaims; the half-empty pages it packs give more.
func reclaimableText(_ bytes: Int64) -> String {
    (bytes > 0 ? "at least " : "") + formatBytes(bytes)
}

/// What a dry run says a VACUUM after it would work on: "would vacuum
/// the 16.0 KiB file: 0 free pages (0 B) now, and the pages this gc would
/// free", `freedBy` naming what frees them (nil: nothing but the VACUUM
/// runs, and no other page is freed).
func plannedVacuumLine(fileBytes: Int64, pages: PageStatistics, freedBy: String?) -> String {
    "would vacuum the \(formatBytes(fileBytes)) file: \(plural(pages.freePages, "free page")) "
        + "(\(formatBytes(Int64(pages.freePages * pages.pageSize)))) now" + (freedBy.map { ", and the pages \($0)" } ?? "")
}

/// "vacuumed: 44.2 KiB → 16.0 KiB". In WAL mode a connection the app holds
/// open keeps the old pages, and the rebuilt file waits in the -wal file
/// beside them: the sizes then grow, and the line says why.
func vacuumLine(before: Int64, after: Int64) -> String {
    let line = "vacuumed: \(formatBytes(before)) → \(formatBytes(after))"
    guard after > before else { return line }
    // The growth, which rounding may hide (109.2 MiB → 109.2 MiB).
    return line + " (\(formatBytes(after - before)) larger: another connection, the app's, holds the file open, so the rebuilt pages wait in the -wal file; "
        + "vacuum again once it has closed the file)"
}
