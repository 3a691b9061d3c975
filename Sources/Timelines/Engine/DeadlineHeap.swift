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
    /// How many items fit before the array grows.
    var capacity: Int { items.capacity }

    /// How many items `isIncluded` picks.
    func count(where isIncluded: (Item) -> Bool) -> Int {
        items.reduce(0) { $0 + (isIncluded($1) ? 1 : 0) }
    }

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
        siftDown(from: 0)
        return top
    }

    mutating func removeAll() {
        items.removeAll(keepingCapacity: true)
    }

    /// Drops the items `isStale` picks and restores the heap order, in place (Floyd's bottom-up heapify).
    mutating func removeAll(where isStale: (Item) -> Bool) {
        items.removeAll(where: isStale)
        var parent = items.count / 2
        while parent > 0 {
            parent -= 1
            siftDown(from: parent)
        }
    }

    private mutating func siftDown(from start: Int) {
        var parent = start
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
    }
}
