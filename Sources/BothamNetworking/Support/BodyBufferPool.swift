import Foundation

// Why: a 1 MiB body read into a fresh allocation costs more in page faults than in copying: the C allocator hands
// memory of that size back to the kernel when it is freed (on Linux, glibc unmaps or trims it), so the next body
// touches fresh pages, each one faulted in, zeroed and charged to the process's memory cgroup. Measured on loopback
// with 16 calls of 1 MiB in flight, faults were about half of the client's CPU (BENCHMARKS.md, "Native against wrk
// and curl").
/// Memory for large response bodies whose length is known up front, kept for reuse after the caller drops them.
///
/// The pool keeps freed buffers, resident, up to ``maxIdleBytes`` in all, and gives them to the next body of the
/// same size class.
///
/// Both transports use it: the native parser for a body of announced length, `URLSessionHTTPClient` for a body whose
/// `Content-Length` it knows and that is not content-coded.
///
/// A body gets a buffer through ``body(count:)``: a `Data` of exactly `count` bytes over pooled memory, whose
/// deallocator gives the memory back to the pool when the last copy of the `Data` goes away (on any thread). The
/// transport writes the body into it as it arrives and hands the caller only bytes it wrote (the whole `Data` once
/// every byte has arrived, a prefix of it otherwise), so bytes of an earlier body are never seen.
package final class BodyBufferPool: Sendable {
    /// The pool both transports use: up to 16 MiB idle on Linux, where the page faults it saves were measured; off
    /// (it pools nothing) elsewhere, where they were not.
    #if os(Linux)
        package static let shared = BodyBufferPool(maxIdleBytes: 16 << 20)
    #else
        package static let shared = BodyBufferPool(maxIdleBytes: 0)
    #endif

    /// Smaller bodies are allocated normally: the allocator reuses memory of that size without faults.
    package static let minimumBytes = 256 << 10
    /// Larger bodies are allocated normally: one of them would be most of the pool.
    package static let maximumBytes = 16 << 20

    /// The most memory the pool keeps while no body uses it.
    package let maxIdleBytes: Int

    private struct Idle {
        /// Free buffers by capacity (a power of two).
        var buffers: [Int: [UnsafeMutableRawPointer]] = [:]
        var bytes = 0
    }

    // The raw pointers in `idle` are owned by the pool alone (a buffer is either here or inside exactly one `Data`),
    // and are only touched under the lock.
    private let idle = Lock(Idle())

    package init(maxIdleBytes: Int) {
        self.maxIdleBytes = maxIdleBytes
    }

    deinit {
        idle.withLock { idle in
            for buffer in idle.buffers.values.joined() { buffer.deallocate() }
        }
    }

    /// A body's pooled memory: the `Data` the caller gets and the memory under it, to write into.
    package struct Body {
        /// `count` bytes over ``bytes``; it gives the memory back to the pool when its last copy goes away.
        package let data: Data
        /// The memory under ``data``: valid while ``data`` (or a copy of it) lives. (A `Data` this large never keeps
        /// its bytes inline, so `data` really is over this memory.)
        package let bytes: UnsafeMutableRawPointer
    }

    /// A body of `count` bytes over pooled memory, or `nil` when `count` is outside the pooled sizes or its size class
    /// is larger than the pool keeps. Its content is whatever the last body left: write every byte before anyone
    /// reads it.
    package func body(count: Int) -> Body? {
        guard count >= Self.minimumBytes, count <= Self.maximumBytes else { return nil }
        let capacity = Self.capacity(for: count)
        guard capacity <= maxIdleBytes else { return nil }
        let buffer = take(capacity) ?? UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 16)
        let data = Data(
            bytesNoCopy: buffer, count: count,
            deallocator: .custom { [self] buffer, _ in recycle(buffer, capacity) })
        return Body(data: data, bytes: buffer)
    }

    /// The bytes the pool holds idle now.
    package var idleBytes: Int { idle.withLock { $0.bytes } }

    /// The size class of a body of `count` bytes (at least ``minimumBytes``): `count` rounded up to a quarter of the
    /// largest power of two below it, so a buffer is at most 25% larger than its body.
    package static func capacity(for count: Int) -> Int {
        let count = max(count, minimumBytes)
        let step = (1 << (Int.bitWidth - 1 - (count - 1).leadingZeroBitCount)) / 4
        return (count + step - 1) / step * step
    }

    private func take(_ capacity: Int) -> UnsafeMutableRawPointer? {
        idle.withLock { idle in
            guard let buffer = idle.buffers[capacity]?.popLast() else { return nil }
            idle.bytes -= capacity
            return buffer
        }
    }

    /// Keeps a returned buffer. When the pool is full, idle buffers of other sizes make room, the largest first: the
    /// size just returned is the likeliest to be asked for next, and one large download must not leave the pool
    /// holding a buffer no later body fits while every 1 MiB body faults fresh memory in again. When buffers of its
    /// own size already fill the pool, the returned one is freed.
    private func recycle(_ buffer: UnsafeMutableRawPointer, _ capacity: Int) {
        let freed = idle.withLock { idle -> [UnsafeMutableRawPointer] in
            let sameSize = (idle.buffers[capacity]?.count ?? 0) * capacity
            guard sameSize + capacity <= maxIdleBytes else { return [buffer] }
            var freed: [UnsafeMutableRawPointer] = []
            while idle.bytes + capacity > maxIdleBytes,
                let largest = idle.buffers.keys.filter({ $0 != capacity && idle.buffers[$0]?.isEmpty == false }).max(),
                let victim = idle.buffers[largest]?.popLast()
            {
                freed.append(victim)
                idle.bytes -= largest
            }
            idle.buffers[capacity, default: []].append(buffer)
            idle.bytes += capacity
            return freed
        }
        for buffer in freed { buffer.deallocate() }
    }
}
