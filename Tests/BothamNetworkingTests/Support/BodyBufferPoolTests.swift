import BothamTestSupport
import Foundation
import Testing

@testable import BothamNetworking

@Suite("BodyBufferPool", .timeLimit(.minutes(1)))
struct BodyBufferPoolTests {
    private static let mebibyte = 1 << 20

    /// The address of a `Data`'s bytes.
    private func address(of data: Data) -> UInt? {
        data.withUnsafeBytes { $0.baseAddress.map { UInt(bitPattern: $0) } }
    }

    @Test("A dropped body's memory goes back to the pool and the next body of its size class reuses it")
    func reuse() throws {
        let pool = BodyBufferPool(maxIdleBytes: 4 * Self.mebibyte)
        var first = try #require(pool.body(count: Self.mebibyte)?.data)
        #expect(first.count == Self.mebibyte)
        let firstAddress = address(of: first)
        #expect(pool.idleBytes == 0)
        first = Data()
        #expect(pool.idleBytes == Self.mebibyte)
        let second = try #require(pool.body(count: Self.mebibyte - 1000)?.data)
        #expect(address(of: second) == firstAddress)
        #expect(second.count == Self.mebibyte - 1000)
        #expect(pool.idleBytes == 0)
    }

    @Test("Sizes outside the pooled range get no pooled buffer")
    func pooledRange() {
        let pool = BodyBufferPool(maxIdleBytes: 64 * Self.mebibyte)
        #expect(pool.body(count: BodyBufferPool.minimumBytes - 1) == nil)
        #expect(pool.body(count: BodyBufferPool.maximumBytes + 1) == nil)
        #expect(pool.body(count: BodyBufferPool.minimumBytes)?.data.count == BodyBufferPool.minimumBytes)
        #expect(pool.body(count: BodyBufferPool.maximumBytes)?.data.count == BodyBufferPool.maximumBytes)
    }

    @Test("Size classes hold the body and waste at most a quarter of it")
    func sizeClasses() {
        #expect(BodyBufferPool.capacity(for: 256 << 10) == 256 << 10)
        #expect(BodyBufferPool.capacity(for: (256 << 10) + 1) == 320 << 10)
        #expect(BodyBufferPool.capacity(for: Self.mebibyte) == Self.mebibyte)
        #expect(BodyBufferPool.capacity(for: Self.mebibyte - 1) == Self.mebibyte)
        #expect(BodyBufferPool.capacity(for: Self.mebibyte + 7) == 5 * Self.mebibyte / 4)
        #expect(BodyBufferPool.capacity(for: 3 * Self.mebibyte) == 3 * Self.mebibyte)
        #expect(BodyBufferPool.capacity(for: 16 * Self.mebibyte) == 16 * Self.mebibyte)
        for count in stride(from: BodyBufferPool.minimumBytes, through: BodyBufferPool.maximumBytes, by: 77_777) {
            let capacity = BodyBufferPool.capacity(for: count)
            #expect(capacity >= count && capacity <= count + count / 4, "\(count) → \(capacity)")
        }
    }

    @Test("A large body returned to a full pool makes room by freeing buffers of other sizes, the largest first")
    func eviction() throws {
        let pool = BodyBufferPool(maxIdleBytes: 16 * Self.mebibyte)
        // A 16 MiB body, dropped at once: its buffer fills the pool.
        _ = try #require(pool.body(count: 16 * Self.mebibyte))
        #expect(pool.idleBytes == 16 * Self.mebibyte)
        // A 1 MiB body comes back: the 16 MiB buffer makes room, so the next 1 MiB body reuses memory.
        var first = try #require(pool.body(count: Self.mebibyte)?.data)
        let firstAddress = address(of: first)
        first = Data()
        #expect(pool.idleBytes == Self.mebibyte)
        let second = try #require(pool.body(count: Self.mebibyte)?.data)
        #expect(address(of: second) == firstAddress)
    }

    @Test("A pool that keeps nothing pools nothing")
    func disabled() {
        let pool = BodyBufferPool(maxIdleBytes: 0)
        #expect(pool.body(count: Self.mebibyte) == nil)
        let small = BodyBufferPool(maxIdleBytes: Self.mebibyte)
        #expect(small.body(count: 2 * Self.mebibyte) == nil)
        #expect(small.body(count: Self.mebibyte) != nil)
    }

    @Test("The pool keeps no more idle memory than its cap; the rest is freed")
    func idleCap() {
        let pool = BodyBufferPool(maxIdleBytes: 2 * Self.mebibyte)
        var bodies = (0..<5).compactMap { _ in pool.body(count: Self.mebibyte)?.data }
        #expect(bodies.count == 5)
        bodies.removeAll()
        #expect(pool.idleBytes == 2 * Self.mebibyte)
    }

    @Test("A copy keeps the memory in use: it returns to the pool only when the last copy goes")
    func copies() throws {
        let pool = BodyBufferPool(maxIdleBytes: 4 * Self.mebibyte)
        var body = try #require(pool.body(count: Self.mebibyte)?.data)
        var slice: Data? = body[10..<20]
        body = Data()
        #expect(pool.idleBytes == 0)
        #expect(slice?.count == 10)
        slice = nil
        #expect(pool.idleBytes == Self.mebibyte)
    }

    @Test("Bodies taken and dropped on many threads at once all come back, each buffer to one body at a time")
    func concurrentUse() async {
        let pool = BodyBufferPool(maxIdleBytes: 64 * Self.mebibyte)
        let intact = await withTaskGroup(of: Bool.self) { group in
            for task in 0..<8 {
                group.addTask {
                    var ok = true
                    for round in 0..<10 {
                        guard let pooled = pool.body(count: BodyBufferPool.minimumBytes) else { return false }
                        let mark = UInt8(truncatingIfNeeded: task * 31 + round)
                        pooled.bytes.initializeMemory(as: UInt8.self, repeating: mark, count: pooled.data.count)
                        await Task.yield()
                        // Compared with memcmp: no other body wrote into this one's memory meanwhile.
                        ok = ok && pooled.data == Data(repeating: mark, count: pooled.data.count)
                    }
                    return ok
                }
            }
            return await group.allSatisfy { $0 }
        }
        #expect(intact)
        #expect(pool.idleBytes > 0)
        #expect(pool.idleBytes <= 8 * BodyBufferPool.minimumBytes)
    }
}
