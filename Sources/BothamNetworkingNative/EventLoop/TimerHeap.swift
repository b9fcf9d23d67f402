/// Timers of one event loop: a binary min-heap of deadlines with cancellation by id. Loop-confined.
struct TimerHeap {
    private struct Entry {
        let deadline: UInt64
        let id: UInt64
    }

    private var heap: [Entry] = []
    private var actions: [UInt64: () -> Void] = [:]
    private var nextID: UInt64 = 1

    /// Adds a timer firing at `deadline` (monotonic nanoseconds) and returns its id.
    mutating func schedule(at deadline: UInt64, _ action: @escaping () -> Void) -> UInt64 {
        let id = nextID
        nextID &+= 1
        actions[id] = action
        heap.append(Entry(deadline: deadline, id: id))
        siftUp(heap.count - 1)
        return id
    }

    /// Cancels a timer; unknown or fired ids are ignored.
    mutating func cancel(_ id: UInt64) {
        actions[id] = nil
    }

    /// The earliest live deadline, or `nil`.
    mutating func nextDeadline() -> UInt64? {
        while let first = heap.first {
            if actions[first.id] != nil { return first.deadline }
            popFirst()
        }
        return nil
    }

    /// Removes and returns the actions of every timer due at `now`.
    mutating func takeDue(now: UInt64) -> [() -> Void] {
        var due: [() -> Void] = []
        while let first = heap.first, first.deadline <= now {
            popFirst()
            if let action = actions.removeValue(forKey: first.id) { due.append(action) }
        }
        return due
    }

    private mutating func popFirst() {
        guard let last = heap.popLast() else { return }
        if heap.isEmpty { return }
        heap[0] = last
        siftDown(0)
    }

    private mutating func siftUp(_ start: Int) {
        var child = start
        while child > 0 {
            let parent = (child - 1) / 2
            if heap[parent].deadline <= heap[child].deadline { return }
            heap.swapAt(parent, child)
            child = parent
        }
    }

    private mutating func siftDown(_ start: Int) {
        var parent = start
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var smallest = parent
            if left < heap.count && heap[left].deadline < heap[smallest].deadline { smallest = left }
            if right < heap.count && heap[right].deadline < heap[smallest].deadline { smallest = right }
            if smallest == parent { return }
            heap.swapAt(parent, smallest)
            parent = smallest
        }
    }
}
