import Foundation

/// Builds a ``CacheGraph`` on a second thread from what the thread reading
/// the table hands over, in the order it was read: batches of scanned rows,
/// the rows that need more than a batch (no key, a NULL record, a text the
/// scanner refused), and chunks of rows it did not scan. Reading and
/// scanning the records then overlaps the graph's key-table work, each on
/// its own core; and the reading thread, whose work is the larger, hands
/// over rows unscanned whenever the builder is about to run out of work
/// (``wantsRawRows``), which keeps both cores busy.
final class GraphBuilder: @unchecked Sendable {
    enum Step {
        case batch(ScanBatch)
        case keylessRow(id: Int64)
        case blobKeyRow(id: Int64, key: [UInt8], isBlob: Bool)
        case nullRecord(id: Int64, key: [UInt8])
        /// A text the scanner refused: decoded to say why, or read after all.
        case decode(id: Int64, key: [UInt8], text: [UInt8])
        /// Rows to scan here, as the reading thread would have.
        case rows(RawRows)
    }

    private var graph: CacheGraph
    private var worker: OrderedWorker<Step>!
    private static let maximumQueued = 4

    init(capacity: Int) {
        graph = CacheGraph(capacity: capacity)
        worker = OrderedWorker(name: "gqlcache graph builder", maximumQueued: Self.maximumQueued, handle: { [unowned self] in apply($0) })
    }

    /// Hands a step over; waits while the builder is several steps behind.
    func send(_ step: Step) { worker.send(step) }

    /// True when the builder has at most one step waiting: the reading
    /// thread then does well to hand over its next rows unscanned.
    var wantsRawRows: Bool { worker.queuedCount < 2 }

    /// Waits for every step sent and gives the graph. Call it exactly once,
    /// also when the reading failed.
    func finish() -> CacheGraph {
        worker.finish()
        return graph
    }

    private func apply(_ step: Step) {
        switch step {
        case .batch(var batch):
            batch.flush(into: &graph)
        case .rows(let rows):
            var scanner = RowScanner()
            rows.forEach { id, key, text in scanner.add(id: id, key: key, text: text, emit: apply) }
            scanner.flush(emit: apply)
        case .keylessRow(let id):
            graph.addKeylessRow(id: id)
        case .blobKeyRow(let id, let key, let isBlob):
            key.withUnsafeBufferPointer { graph.addBlobKeyRow(id: id, key: $0, isBlob: isBlob) }
        case .nullRecord(let id, let key):
            key.withUnsafeBufferPointer { graph.markDamaged(graph.beginRecord(key: $0, rowID: id, bytes: 0), problem: .null) }
        case .decode(let id, let key, let text):
            let node = key.withUnsafeBufferPointer { graph.beginRecord(key: $0, rowID: id, bytes: text.count) }
            do {
                // From the bytes, as every other read of a row decodes it.
                let record = try text.withUnsafeBufferPointer { try Record(key: graph.key(node), utf8: $0, fields: nil) }
                graph.replaceReferences(of: node, with: record)
                if let found = record.numberApolloCannotRead { graph.noteNumberApolloCannotRead(found) }
                if let found = record.typenameApolloCannotRead { graph.noteTypenameApolloCannotRead(found) }
            } catch CacheStoreError.damagedRecord(_, let problem) {
                graph.markDamaged(node, problem: problem)
            } catch {
                graph.markDamaged(node, problem: .invalidJSON(offset: 0, message: "\(error)"))
            }
        }
    }
}
