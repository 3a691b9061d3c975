import FoundationEssentials

/// A min-heap of (deadline, instance) pairs with lazy deletion, so the loop finds what is due without
/// scanning every instance.
///
/// An instance's deadline changes often; rather than searching the heap, each push carries the instance's
/// generation, and an entry whose generation is no longer current is dropped when it surfaces.
struct DeadlineHeap {
    struct Item {
        var date: Date
        var index: Int
        var generation: UInt64
    }

    private var items: [Item] = []

    var isEmpty: Bool { items.isEmpty }
    var count: Int { items.count }
    var first: Item? { items.first }

    mutating func push(_ item: Item) {
        items.append(item)
        var child = items.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard items[child].date < items[parent].date else { break }
            items.swapAt(child, parent)
            child = parent
        }
    }

    mutating func popFirst() -> Item? {
        guard !items.isEmpty else { return nil }
        items.swapAt(0, items.count - 1)
        let top = items.removeLast()
        var parent = 0
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var smallest = parent
            if left < items.count, items[left].date < items[smallest].date { smallest = left }
            if right < items.count, items[right].date < items[smallest].date { smallest = right }
            guard smallest != parent else { break }
            items.swapAt(parent, smallest)
            parent = smallest
        }
        return top
    }

    mutating func removeAll() {
        items.removeAll(keepingCapacity: true)
    }
}
